//! The field names of the ruleset's sections, read from their serde definitions, so a script
//! typo (`ship.sheilds`) is caught and the REPL can complete field names — and a field added to
//! the model later is known here without touching this file.
use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The field names serde expects for a struct type.
pub(crate) fn struct_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut probe = FieldProbe { fields: None };
    let _ = T::deserialize(&mut probe);
    probe.fields.unwrap_or(&[])
}

/// The known fields of the ruleset node at `path` ("" is the root, ["ships", X] a ship),
/// or `None` where the model has free keys (ship names, tables) or the path is deeper.
pub(crate) fn fields_at(path: &[String]) -> Option<&'static [&'static str]> {
    use crate::rules::{
        combat::CombatRules, league::LeagueRules, scoring::ScoringRules, script::ScriptRules,
    };
    let first = path.first().map(|s| s.as_str());
    Some(match (first, path.len()) {
        (None, _) => struct_fields::<crate::rules::model::Ruleset>(),
        (Some("ships"), 2) => struct_fields::<crate::rules::ship::Ship>(),
        (Some("scoring"), 1) => struct_fields::<ScoringRules>(),
        (Some("league"), 1) => struct_fields::<LeagueRules>(),
        (Some("combat"), 1) => struct_fields::<CombatRules>(),
        (Some("script"), 1) => struct_fields::<ScriptRules>(),
        _ => return None,
    })
}

struct FieldProbe {
    fields: Option<&'static [&'static str]>,
}

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field probe")
    }
}
impl std::error::Error for Stop {}
impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Stop {
        Stop
    }
}

impl<'de> Deserializer<'de> for &mut FieldProbe {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        self.fields = Some(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ship_fields_come_from_the_model() {
        let fields = struct_fields::<crate::rules::ship::Ship>();
        assert!(
            fields.contains(&"shields")
                && fields.contains(&"max_speed")
                && fields.contains(&"aliases")
        );
        assert!(fields_at(&["ships".to_string(), "x".to_string()])
            .unwrap()
            .contains(&"hull"));
        assert!(fields_at(&[]).unwrap().contains(&"ships"));
        assert!(fields_at(&["ships".to_string()]).is_none());
    }
}
