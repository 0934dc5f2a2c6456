//! `arbiter site`: the example club's site, every page parsed with a real HTML parser
//! (html5ever, through scraper): well formed, phone-ready head, scoped table headers, every
//! internal link and image resolving to a file of the site, the ruleset and its sha256 named
//! on every page, names as text, and the same bytes when built again.
use crate::common::{ok, Test};
use scraper::{Html, Selector};
use std::collections::BTreeMap;
use std::path::Path;

fn select<'a>(doc: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    doc.select(&Selector::parse(css).expect("a selector"))
        .collect()
}

fn text(e: &scraper::ElementRef) -> String {
    e.text().collect::<String>()
}

/// Every file of a site folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The sha256 `rules hash` gives a ruleset.
fn hash(reference: &str) -> String {
    ok(&["rules", "hash", reference])
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// What every page of a site must be; returns each page parsed.
#[track_caller]
fn check_site(dir: &Path) -> BTreeMap<String, Html> {
    let all = files(dir);
    assert!(all.contains_key("index.html"), "{:?}", all.keys());
    assert!(all.contains_key("style.css"));
    let css: Vec<&String> = all.keys().filter(|f| f.ends_with(".css")).collect();
    assert_eq!(css.len(), 1, "one stylesheet: {css:?}");
    let style = String::from_utf8(all["style.css"].clone()).unwrap();
    assert!(style.contains("@media print"));
    assert!(style.contains("position:sticky"));
    let mut pages = BTreeMap::new();
    for (name, bytes) in &all {
        if !name.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes.clone()).unwrap();
        let doc = Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{name}: {:?}", doc.errors);
        assert_eq!(select(&doc, "html[lang=en]").len(), 1, "{name}");
        assert_eq!(
            select(&doc, "head > meta[charset=utf-8]").len(),
            1,
            "{name}"
        );
        let viewport = select(&doc, "head > meta[name=viewport]");
        assert_eq!(viewport.len(), 1, "{name}");
        assert!(viewport[0]
            .value()
            .attr("content")
            .unwrap()
            .contains("width=device-width"));
        let title = text(&select(&doc, "head > title")[0]);
        assert_eq!(text(&select(&doc, "body > h1")[0]), title, "{name}");
        let sheets = select(&doc, "head > link[rel=stylesheet]");
        assert_eq!(sheets.len(), 1, "{name}");
        assert_eq!(sheets[0].value().attr("href"), Some("style.css"));
        assert!(select(&doc, "script").is_empty(), "{name}");
        assert!(
            select(&doc, "style").is_empty(),
            "{name}: the style is the one file"
        );
        for th in select(&doc, "thead th") {
            assert_eq!(th.value().attr("scope"), Some("col"), "{name}");
        }
        for th in select(&doc, "tbody th") {
            assert_eq!(th.value().attr("scope"), Some("row"), "{name}");
        }
        // Every link and image leads to a file of the site: nothing from the network.
        for e in select(&doc, "[href], [src]") {
            let target = e
                .value()
                .attr("href")
                .or_else(|| e.value().attr("src"))
                .unwrap();
            assert!(
                !target.contains(':') && !target.starts_with('/'),
                "{name}: {target} leaves the site"
            );
            assert!(
                all.contains_key(target),
                "{name}: {target} is not in the site"
            );
        }
        // Every page but the index goes back to it.
        if name != "index.html" {
            let nav: Vec<_> = select(&doc, "nav a");
            assert_eq!(nav[0].value().attr("href"), Some("index.html"), "{name}");
        }
        // Every page names its ruleset and its sha256, and links to the ruleset's page.
        let footer = text(&select(&doc, "footer")[0]);
        assert!(footer.contains("Ruleset: "), "{name}: {footer}");
        let hashes: Vec<String> = select(&doc, "footer code").iter().map(text).collect();
        assert!(!hashes.is_empty(), "{name}");
        for h in &hashes {
            assert_eq!(h.len(), 64, "{name}: {h}");
            assert!(h.chars().all(|c| c.is_ascii_hexdigit()), "{name}: {h}");
        }
        assert!(
            !select(&doc, "footer a[href^=ruleset-]").is_empty(),
            "{name}"
        );
        pages.insert(name.clone(), doc);
    }
    pages
}

#[test]
fn the_example_club_site_is_well_formed_linked_and_the_same_when_rebuilt() {
    let out = tempfile::tempdir().unwrap();
    let first = out.path().join("public");
    let again = out.path().join("again");
    let built = Test::in_project()
        .args([
            "site",
            first.to_str().unwrap(),
            "--club",
            "examples/club.yaml",
        ])
        .run();
    assert!(
        built.stderr.contains("wrote 30 files to"),
        "{}",
        built.stderr
    );
    assert!(
        built.stdout.starts_with(
            "Tuesday Night Games: 1 season (6 teams), 1 Swiss tournament (3 rounds), 1 rating \
             history (4 players), 5 rulesets, a balance matrix\nopen "
        ),
        "{}",
        built.stdout
    );
    Test::in_project()
        .args([
            "site",
            again.to_str().unwrap(),
            "--club",
            "examples/club.yaml",
        ])
        .run();
    let (a, b) = (files(&first), files(&again));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(*bytes == b[name], "{name} differs between two builds");
    }
    // Built again into the same folder: the same bytes.
    Test::in_project()
        .args([
            "site",
            first.to_str().unwrap(),
            "--club",
            "examples/club.yaml",
        ])
        .run();
    assert_eq!(files(&first), a);

    let pages = check_site(&first);
    // The index links to every part.
    let index = &pages["index.html"];
    assert_eq!(text(&select(index, "h1")[0]), "Tuesday Night Games");
    let links: Vec<&str> = select(index, "ul a")
        .iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    for page in [
        "season-old-world-cup.html",
        "swiss-tuesday-open.html",
        "ratings-history.html",
        "balance.html",
        "ruleset-bloodbowl.html",
        "ruleset-cep-house.html",
        "ruleset-startrek-house.html",
    ] {
        assert!(links.contains(&page), "{page} not in {links:?}");
    }
    // The season: Reikland Reavers and Gouged Eye both on 9 points (three wins), the
    // Reavers first on touchdown difference (+6 against +4); the table names bloodbowl.
    let season = &pages["season-old-world-cup.html"];
    let rows = select(season, "table tbody tr");
    let cells = |row: &scraper::ElementRef| -> Vec<String> {
        row.select(&Selector::parse("th, td").unwrap())
            .map(|c| text(&c))
            .collect()
    };
    assert_eq!(
        cells(&rows[0]),
        [
            "1",
            "Reikland Reavers",
            "3",
            "3",
            "0",
            "0",
            "6",
            "0",
            "+6",
            "9"
        ]
    );
    assert_eq!(cells(&rows[1])[1], "Gouged Eye");
    assert_eq!(cells(&rows[1])[9], "9");
    let footer = text(&select(season, "footer")[0]);
    assert!(footer.contains("bloodbowl"), "{footer}");
    assert!(footer.contains(&hash("bloodbowl")), "{footer}");
    // A team's page lists its matches, its score first.
    let team = &pages["season-old-world-cup.team-gouged-eye.html"];
    let matches: Vec<Vec<String>> = select(team, "tbody tr").iter().map(cells).collect();
    assert_eq!(matches[0], ["1", "Elfheim Eagles", "home", "2 – 1", "won"]);
    assert_eq!(matches[2], ["3", "Orcland Raiders", "away", "3 – 1", "won"]);
    assert_eq!(matches[3][3], "–", "round 4 is still to play");
    // The Swiss tournament: standings with tie-breaks in words, each round's boards.
    let swiss = &pages["swiss-tuesday-open.html"];
    let heads: Vec<String> = select(swiss, "thead th").iter().map(text).collect();
    assert_eq!(
        &heads[..5],
        ["Rank", "No.", "Name", "Points", "Buchholz cut1"]
    );
    assert_eq!(
        text(&select(swiss, "tbody th")[0]),
        "Ana Duarte",
        "first on 2 points"
    );
    assert!(text(&select(swiss, "footer")[0]).contains(&hash("swiss")));
    let round = &pages["swiss-tuesday-open.round-1.html"];
    let boards: Vec<Vec<String>> = select(round, "tbody tr").iter().map(cells).collect();
    assert_eq!(boards[1], ["2", "Ed Novak (5)", "½–½", "Bo Lindqvist (2)"]);
    // Ratings: a leaderboard, a page per player with its chart (an SVG file of the site).
    let player = &pages["ratings-history.player-ana.html"];
    let img = select(player, "figure img");
    assert_eq!(
        img[0].value().attr("src"),
        Some("ratings-history.player-ana.svg")
    );
    assert!(!img[0].value().attr("alt").unwrap().is_empty());
    let svg = String::from_utf8(files(&first)["ratings-history.player-ana.svg"].clone()).unwrap();
    assert!(svg.contains("<svg"), "{svg}");
    assert!(text(&select(player, "footer")[0]).contains(&hash("elo")));
    // Rulesets: the house rule's diff against its base, in the model's words.
    let house = &pages["ruleset-cep-house.html"];
    let headings: Vec<String> = select(house, "h2").iter().map(text).collect();
    assert!(
        headings.contains(&"Changes from cep".to_string()),
        "{headings:?}"
    );
    let diff: Vec<Vec<String>> = select(house, "table")[0]
        .select(&Selector::parse("tbody tr").unwrap())
        .map(|r| cells(&r))
        .collect();
    let loss = diff
        .iter()
        .find(|r| r[0] == "scoring.cep.index.loss")
        .unwrap_or_else(|| panic!("{diff:?}"));
    assert_eq!(loss[1], "changed");
    assert_eq!(loss[3], "0.35");
    assert!(!loss[4].is_empty(), "the change's meaning: {loss:?}");
    assert!(text(&select(house, "footer")[0]).contains(&hash("examples/house-cep.yaml")));
    // Balance: the heat map and each ship's strength.
    let balance = &pages["balance.html"];
    assert_eq!(
        select(balance, "figure img")[0].value().attr("src"),
        Some("balance.svg")
    );
    let ships: Vec<String> = select(balance, "table")[0]
        .select(&Selector::parse("tbody th").unwrap())
        .map(|c| text(&c))
        .collect();
    assert_eq!(ships.len(), 3, "{ships:?}");
}

const HOSTILE: &str = "<b>&'\"";

#[test]
fn names_are_text_on_every_page_and_club_yaml_is_found_here() {
    let t = Test::new()
        .file("teams.txt", format!("{HOSTILE}\nElves\nDwarfs\nOrcs\n"))
        .file(
            "players.csv",
            format!(
                "name,rating\n\"{}\",1800\nBoris,2100\nCarla,1700\n",
                HOSTILE.replace('"', "\"\"")
            ),
        )
        .file(
            "club.yaml",
            "club: \"<i>Club</i> & 'Co'\"\nseasons: [s.yaml]\ntournaments: [t.yaml]\n",
        );
    let dir = t.dir().to_path_buf();
    let at = |f: &str| dir.join(f).to_str().unwrap().to_string();
    ok(&["league", "new", &at("s.yaml"), "--teams", &at("teams.txt")]);
    ok(&[
        "swiss",
        "new",
        &at("t.yaml"),
        "--players",
        &at("players.csv"),
        "--rounds",
        "2",
    ]);
    ok(&["swiss", "pair", &at("t.yaml")]);
    let ran = t.args(["site", "out"]).run();
    let out = ran.path("out");
    let pages = check_site(&out);
    assert_eq!(
        text(&select(&pages["index.html"], "h1")[0]),
        "<i>Club</i> & 'Co'"
    );
    let season = &pages["season-s.html"];
    let teams: Vec<String> = select(season, "tbody th").iter().map(text).collect();
    assert!(teams.contains(&HOSTILE.to_string()), "{teams:?}");
    assert!(select(season, "tbody b").is_empty(), "a name became markup");
    let raw = String::from_utf8(files(&out)["season-s.html"].clone()).unwrap();
    assert!(raw.contains("&lt;b&gt;&amp;&#39;&quot;"), "{raw}");
    // The team's page has a safe file name, and its title is the name as text.
    let team = pages
        .iter()
        .find(|(f, _)| f.starts_with("season-s.team-b"))
        .map(|(_, d)| d)
        .expect("the hostile team's page");
    assert!(text(&select(team, "h1")[0]).starts_with(HOSTILE));
    let swiss = &pages["swiss-t.html"];
    let names: Vec<String> = select(swiss, "tbody th").iter().map(text).collect();
    assert!(names.contains(&HOSTILE.to_string()), "{names:?}");
}

#[test]
fn a_missing_file_is_an_error_at_the_club_file_line_that_names_it() {
    let ran = Test::new()
        .file(
            "club.yaml",
            "club: Tuesday\nseasons:\n  - nowhere.yaml\nrulesets: [bloodbowl]\n",
        )
        .args(["site", "out"])
        .status(1)
        .run();
    assert!(ran.stderr.contains("club.yaml:3:"), "{}", ran.stderr);
    assert!(ran.stderr.contains("nowhere.yaml"), "{}", ran.stderr);
    assert!(!ran.path("out").exists(), "nothing written on an error");

    let ran = Test::new()
        .file(
            "club.yaml",
            "club: Tuesday\nrulesets: [bloodbowl, nonesuch]\n",
        )
        .args(["site", "out"])
        .status(1)
        .run();
    assert!(ran.stderr.contains("club.yaml:2:"), "{}", ran.stderr);
    assert!(ran.stderr.contains("nonesuch"), "{}", ran.stderr);

    let ran = Test::new()
        .file("club.yaml", "club: Tuesday\nseason: [s.yaml]\n")
        .args(["site", "out"])
        .status(1)
        .run();
    assert!(ran.stderr.contains("club.yaml:2:"), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("seasons"),
        "did you mean: {}",
        ran.stderr
    );
}

#[test]
fn without_a_club_file_the_error_shows_a_minimal_one() {
    let ran = Test::new().args(["site", "out"]).status(1).run();
    assert!(ran.stderr.contains("--club"), "{}", ran.stderr);
    assert!(ran.stderr.contains("club: "), "{}", ran.stderr);
    assert!(ran.stderr.contains("seasons: ["), "{}", ran.stderr);
    assert!(!ran.path("out").exists());
}
