//! Which ruleset an engine function called without one uses: the session's (`--rules`,
//! `:rules`), else the one its input names for itself (`rules:` in a game, history or season
//! file, as the command line does), else the command's default.
use super::convert::{checked, script_error, ScriptResult};
use crate::script::engine::Session;
use crate::script::handle::RulesHandle;
use crate::script::sandbox::engine_call;

/// The ruleset for a function form (`score(game)`): `named` is the input's own `rules:`,
/// `file` the file the input came from (a relative `rules:` path is tried beside it).
pub(crate) fn ruleset_for(
    session: &Session,
    named: Option<&str>,
    file: Option<&str>,
    default: Option<&str>,
) -> ScriptResult<RulesHandle> {
    if session.has_current() {
        return checked(session.current());
    }
    let Some(reference) = named.or(default) else {
        return Err(script_error(
            "no ruleset chosen: start with --rules NAME, use :rules NAME, call it on a ruleset \
             (rules(\"NAME\").score(game)), or name one in the input (`rules:`)",
        ));
    };
    // A relative `rules:` is found beside the file that names it (and may sit there); the
    // read policy is applied as the ruleset is located.
    let dir = file.and_then(|f| std::path::Path::new(f).parent());
    checked(engine_call(|| RulesHandle::load_beside(reference, dir)))
}
