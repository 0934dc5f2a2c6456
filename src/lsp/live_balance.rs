//! Live balance: each ship's share of the decided battles against its rivals, for the text
//! the editor holds, computed by the balance lab on a thread (and a thread pool) of its own, so
//! diagnostics and completion never wait for a battle.
//!
//! A document's figures are computed when the editor first asks for its code lenses, for that
//! exact text: in passes of more battles each ([`PASSES`]; the first answers fast, the next
//! refines), each pass's figures replacing the last, then `workspace/codeLens/refresh` if the
//! editor can hear it. An edit cancels the work on the old text at once (the lab checks the
//! flag between battles) and forgets its figures. The work is bounded: at most [`MAX_SHIPS`]
//! ships a document, [`BUDGET_SECONDS`] of CPU time for all passes of one text, and what the
//! bound stopped is said in the lens. Battles are seeded ([`SEED`]): the same text gives the
//! same figures, whatever the thread count, those of `combat sim A B -n N --seed 1`.
use super::transport::Out;
use crate::combat::lab::rivals::{records, Record};
use crate::rules::model::Ruleset;
use crate::stop::{Bound, Reason};
use lsp_server::{Message, Request, RequestId};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Battles of each matchup in each pass: a first answer within a second or two, then more.
pub const PASSES: [u64; 2] = [100, 400];
/// The dice's seed (`combat sim`'s default).
pub const SEED: u64 = 1;
/// Most ships of one document given a live balance.
pub(crate) const MAX_SHIPS: usize = 24;
/// CPU time (the server's, every thread) the passes of one text may take.
pub(crate) const BUDGET_SECONDS: f64 = 20.0;
/// Memory the server may hold while it simulates.
const MEMORY_MB: u64 = 4096;

/// One matchup: a ship of the document against a rival (ruleset keys).
pub(crate) type Pair = (String, String);

/// The figures of the latest pass done, one per pair.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Figures {
    pub battles: u64,
    /// Whether no later pass will replace them.
    pub done: bool,
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Row {
    Record(Record),
    /// Why this matchup has no figures (a ship the engine cannot fight, the bound).
    Failed(String),
}

/// What one text's work came to.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// The text changed (or the document closed): nothing to show.
    Cancelled,
    Figures(Figures),
}

struct Entry {
    text: Arc<str>,
    /// The matchups asked for (a base changed on disk may change them for the same text).
    pairs: Vec<Pair>,
    cancel: Arc<AtomicBool>,
    figures: Option<Figures>,
}

struct Ask {
    uri: String,
    text: Arc<str>,
    cancel: Arc<AtomicBool>,
    rules: Arc<Ruleset>,
    pairs: Vec<Pair>,
}

/// The live balance of the open documents, shared by the loop reading the editor's messages
/// (which cancels on an edit) and the worker answering `textDocument/codeLens`.
pub(crate) struct LiveBalance {
    entries: Arc<Mutex<HashMap<String, Entry>>>,
    asks: mpsc::Sender<Ask>,
}

impl LiveBalance {
    /// Start the balance's thread; `refresh`: whether the editor takes
    /// `workspace/codeLens/refresh` (then it hears when new figures are ready).
    pub(crate) fn start(out: Out, refresh: bool) -> crate::error::Result<LiveBalance> {
        let entries: Arc<Mutex<HashMap<String, Entry>>> = Arc::default();
        let (asks, queue) = mpsc::channel();
        let shared = entries.clone();
        std::thread::Builder::new()
            .name("lsp-balance".into())
            .spawn(move || work(&queue, &shared, &out, refresh))
            .map_err(|e| {
                crate::error::Error::msg(format!("lsp: cannot start the live balance: {e}"))
            })?;
        Ok(LiveBalance { entries, asks })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        lock(&self.entries)
    }

    /// The document's text changed (`Some`) or it closed (`None`): stop the work on the old
    /// text and forget its figures (an unchanged text keeps them).
    pub(crate) fn changed(&self, uri: &str, text: Option<&str>) {
        let mut entries = self.lock();
        let stale = entries
            .get(uri)
            .is_some_and(|e| text.is_none_or(|t| *e.text != *t));
        if stale {
            if let Some(e) = entries.remove(uri) {
                e.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The figures for `text` so far (`None`: computing); the first question about a text
    /// starts its work.
    pub(crate) fn figures(
        &self,
        uri: &str,
        text: &Arc<str>,
        rules: Ruleset,
        pairs: Vec<Pair>,
    ) -> Option<Figures> {
        let mut entries = self.lock();
        if let Some(e) = entries
            .get(uri)
            .filter(|e| *e.text == **text && e.pairs == pairs)
        {
            return e.figures.clone();
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let old = entries.insert(
            uri.to_string(),
            Entry {
                text: text.clone(),
                pairs: pairs.clone(),
                cancel: cancel.clone(),
                figures: None,
            },
        );
        if let Some(old) = old {
            old.cancel.store(true, Ordering::Relaxed);
        }
        let _ = self.asks.send(Ask {
            uri: uri.to_string(),
            text: text.clone(),
            cancel,
            rules: Arc::new(rules),
            pairs,
        });
        None
    }
}

fn lock(
    entries: &Mutex<HashMap<String, Entry>>,
) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
    entries.lock().unwrap_or_else(|p| p.into_inner())
}

fn work(
    queue: &mpsc::Receiver<Ask>,
    entries: &Mutex<HashMap<String, Entry>>,
    out: &Out,
    refresh: bool,
) {
    // A pool of its own: the analysis never queues behind a battle.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let Ok(pool) = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("lsp-battles-{i}"))
        .build()
    else {
        return;
    };
    let refreshes = AtomicU64::new(0);
    for ask in queue {
        let publish = |figures: Figures| {
            let mut entries = lock(entries);
            let Some(e) = entries.get_mut(&ask.uri) else {
                return false;
            };
            if !Arc::ptr_eq(&e.text, &ask.text) || ask.cancel.load(Ordering::Relaxed) {
                return false;
            }
            e.figures = Some(figures);
            true
        };
        pool.install(|| {
            compute(
                &ask.rules,
                &ask.pairs,
                BUDGET_SECONDS,
                ask.cancel.clone(),
                &mut |f| {
                    if publish(f) && refresh {
                        let k = refreshes.fetch_add(1, Ordering::Relaxed);
                        out.send(Message::Request(Request::new(
                            RequestId::from(format!("arbiter-balance-{k}")),
                            "workspace/codeLens/refresh".into(),
                            serde_json::Value::Null,
                        )));
                    }
                },
            )
        });
    }
}

/// The passes over `pairs` under a bound of `budget` seconds of CPU time and `cancel`;
/// `each` hears every pass's figures. A pass the bound stops keeps the last pass's figures
/// (or, for the first, says so in every row).
pub(crate) fn compute(
    rules: &Ruleset,
    pairs: &[Pair],
    budget: f64,
    cancel: Arc<AtomicBool>,
    each: &mut dyn FnMut(Figures),
) -> Outcome {
    let bound = Arc::new(Bound::new(budget, MEMORY_MB).with_cancel(cancel));
    let mut last = None;
    for (k, battles) in PASSES.into_iter().enumerate() {
        let rows = crate::stop::enter(Some(bound.clone()), || records(rules, pairs, battles, SEED));
        let figures = match bound.passed() {
            Some(Reason::Cancelled) => return Outcome::Cancelled,
            Some(reason) => {
                let why = match reason {
                    Reason::Memory { limit_mb } => {
                        format!("the server's memory cap ({limit_mb} MB)")
                    }
                    _ => format!("its time budget ({budget} s of CPU time)"),
                };
                let stopped = format!(
                    "stopped at {why}: these ships fight long battles; try `arbiter combat sim`"
                );
                match last.take() {
                    Some(Figures { battles, rows, .. }) => Figures {
                        battles,
                        done: true,
                        rows,
                    },
                    None => Figures {
                        battles,
                        done: true,
                        rows: vec![Row::Failed(stopped); pairs.len()],
                    },
                }
            }
            None => Figures {
                battles,
                done: k + 1 == PASSES.len(),
                rows: rows
                    .into_iter()
                    .map(|r| match r {
                        Ok(record) => Row::Record(record),
                        Err(e) => Row::Failed(e.message()),
                    })
                    .collect(),
            },
        };
        each(figures.clone());
        if figures.done {
            return Outcome::Figures(figures);
        }
        last = Some(figures);
    }
    unreachable!("the last pass is done")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs() -> Vec<Pair> {
        vec![("UFP frigate".into(), "Pirate frigate".into())]
    }

    #[test]
    fn the_passes_refine_the_figures_of_the_same_battles() {
        let r = crate::rules::load::load("startrek").unwrap();
        let mut heard = Vec::new();
        let cancel = Arc::new(AtomicBool::new(false));
        let end = compute(&r, &pairs(), 1000.0, cancel, &mut |f| heard.push(f));
        assert_eq!(heard.len(), PASSES.len());
        assert_eq!((heard[0].battles, heard[0].done), (PASSES[0], false));
        assert_eq!(end, Outcome::Figures(heard[1].clone()));
        let sims = PASSES.map(|n| {
            let opts =
                crate::combat::sim::SimOptions::new("UFP frigate", "Pirate frigate", n, SEED);
            crate::combat::sim::simulate(&r, &opts).unwrap()
        });
        for (f, sim) in heard.iter().zip(&sims) {
            let Row::Record(rec) = &f.rows[0] else {
                panic!("{f:?}")
            };
            assert_eq!(
                (rec.wins, rec.losses, rec.battles),
                (sim.a.wins, sim.b.wins, f.battles)
            );
        }
    }

    #[test]
    fn a_cancelled_text_gets_nothing_and_a_spent_budget_says_so() {
        let r = crate::rules::load::load("startrek").unwrap();
        let cancel = Arc::new(AtomicBool::new(true));
        let mut heard = 0;
        let end = compute(&r, &pairs(), 1000.0, cancel, &mut |_| heard += 1);
        assert_eq!((end, heard), (Outcome::Cancelled, 0));
        // A budget far below a pass's cost: the first pass stops, and every row says why.
        let cancel = Arc::new(AtomicBool::new(false));
        let Outcome::Figures(f) = compute(&r, &pairs(), 0.001, cancel, &mut |_| {}) else {
            panic!("figures")
        };
        assert!(f.done);
        match &f.rows[0] {
            Row::Failed(why) => assert!(why.contains("time budget (0.001 s"), "{why}"),
            row => panic!("{row:?}"),
        }
    }
}
