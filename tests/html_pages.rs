//! Every page arbiter writes, parsed with a real HTML parser (html5ever, through scraper): one
//! head with a title, a charset and a viewport; tables with scoped headers; names as text,
//! never as markup; nothing stray in the head.
use crate::common::{ok, Test};
use scraper::{Html, Selector};

fn select<'a>(doc: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    doc.select(&Selector::parse(css).expect("a selector"))
        .collect()
}

fn text(e: &scraper::ElementRef) -> String {
    e.text().collect::<String>()
}

/// What every page must be: one head, its title, lang, charset, viewport and only the
/// elements a head holds; every table's column headers scoped; no script anywhere.
#[track_caller]
fn assert_well_formed(html: &str, title: &str) -> Html {
    let doc = Html::parse_document(html);
    assert!(
        doc.errors.is_empty(),
        "parse errors {:?}\n{html}",
        doc.errors
    );
    assert_eq!(select(&doc, "html[lang=en]").len(), 1);
    assert_eq!(select(&doc, "head").len(), 1);
    let titles = select(&doc, "head > title");
    assert_eq!(titles.len(), 1);
    assert_eq!(text(&titles[0]), title);
    assert_eq!(text(&select(&doc, "body > h1")[0]), title);
    assert_eq!(select(&doc, "head > meta[charset=utf-8]").len(), 1);
    assert_eq!(select(&doc, "head > meta[name=viewport]").len(), 1);
    for e in select(&doc, "head > *") {
        assert!(
            ["meta", "title", "style"].contains(&e.value().name()),
            "unexpected <{}> in the head",
            e.value().name()
        );
    }
    // The style is CSS, not a line of a Rust string continuation.
    let style = text(&select(&doc, "head > style")[0]);
    assert!(
        !style.contains('\\'),
        "stray backslash in the style: {style}"
    );
    assert!(style.contains("@media print"));
    assert!(select(&doc, "script").is_empty());
    for th in select(&doc, "thead th") {
        assert_eq!(th.value().attr("scope"), Some("col"));
    }
    assert!(!select(&doc, "table").is_empty());
    doc
}

const HOSTILE: &str = "<script>alert(1)</script>";

#[test]
fn the_league_page_is_well_formed_and_keeps_names_as_text() {
    let t = Test::new()
        .file(
            "teams.txt",
            format!("{HOSTILE}\nR&D 'United'\nElves\nDwarfs\n"),
        )
        .args(["league", "new", "s.yaml", "--teams", "teams.txt"]);
    let ran = t.run();
    let season = ran.path("s.yaml");
    let season = season.to_str().unwrap();
    let page = ran.path("s.html");
    ok(&["league", "table", season, "--html", page.to_str().unwrap()]);
    let html = ran.read("s.html");
    let doc = assert_well_formed(&html, "s — bloodbowl, 3/1/0 points");
    // The standings: four rows, each team once as a row header, points on the right.
    let standings = select(&doc, "table")[0];
    let rows: Vec<_> = standings
        .select(&Selector::parse("tbody tr").unwrap())
        .collect();
    let teams: Vec<String> = rows
        .iter()
        .map(|r| {
            text(
                &r.select(&Selector::parse("th[scope=row]").unwrap())
                    .next()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(teams.len(), 4);
    assert!(teams.contains(&HOSTILE.to_string()), "{teams:?}");
    assert!(teams.contains(&"R&D 'United'".to_string()), "{teams:?}");
    let heads: Vec<String> = standings
        .select(&Selector::parse("thead th").unwrap())
        .map(|e| text(&e))
        .collect();
    assert_eq!(heads.first().map(String::as_str), Some("#"));
    assert_eq!(heads.last().map(String::as_str), Some("Points"));
    // Names are text: the hostile name's script tag is not an element (checked above), and the
    // raw page holds it only as entities.
    assert!(html.contains("&lt;script&gt;"));
    assert!(html.contains("R&amp;D &#39;United&#39;"));
    // The rounds: one captioned table per round.
    let captions: Vec<String> = select(&doc, "caption").iter().map(text).collect();
    assert_eq!(captions[0], "Standings");
    assert_eq!(captions[1], "Round 1");
    // The page names the ruleset it was made under and its sha256.
    let hash = ok(&["rules", "hash", "bloodbowl"]);
    let hash = hash.split_whitespace().next().unwrap();
    assert!(text(&select(&doc, "footer")[0]).contains(hash), "{html}");
}

#[test]
fn the_swiss_page_is_well_formed_with_tiebreaks_in_words() {
    let t = Test::new()
        .file(
            "players.csv",
            format!("name,rating\n\"{HOSTILE}\",1800\nBoris,2100\nCarla,1700\nDan,1950\n"),
        )
        .args([
            "swiss",
            "new",
            "open.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "3",
            "--name",
            "Club <Open> & 'Blitz'",
        ]);
    let ran = t.run();
    let open = ran.path("open.yaml");
    let open = open.to_str().unwrap();
    ok(&["swiss", "pair", open]);
    let page = ran.path("open.html");
    ok(&["swiss", "table", open, "--html", page.to_str().unwrap()]);
    let html = ran.read("open.html");
    let doc = assert_well_formed(&html, "Club <Open> & 'Blitz'");
    let heads: Vec<String> = select(&doc, "thead th").iter().map(text).collect();
    assert_eq!(&heads[..4], ["Rank", "No.", "Name", "Points"]);
    for h in &heads {
        assert!(!h.contains('_'), "a header in snake_case: {h}");
    }
    let names: Vec<String> = select(&doc, "tbody th[scope=row]")
        .iter()
        .map(text)
        .collect();
    assert_eq!(names.len(), 4);
    assert!(names.contains(&HOSTILE.to_string()), "{names:?}");
    assert!(html.contains("Club &lt;Open&gt; &amp; &#39;Blitz&#39;"));
    let hash = ok(&["rules", "hash", "swiss"]);
    let hash = hash.split_whitespace().next().unwrap();
    assert!(text(&select(&doc, "footer")[0]).contains(hash), "{html}");
}
