//! Administrative commands: who the engine is, what it understands, and `quit`.

use super::{Answer, Engine, COMMANDS};

pub fn protocol_version(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("2".to_string())
}

/// The name alone (the version has its own command), or the one the command line chose.
pub fn name(engine: &mut Engine, _: &[&str]) -> Answer {
    Ok(engine
        .override_name
        .clone()
        .unwrap_or_else(|| "tengen".to_string()))
}

/// The package version, or the one the command line chose.
pub fn version(engine: &mut Engine, _: &[&str]) -> Answer {
    Ok(engine
        .override_version
        .clone()
        .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string()))
}

pub fn known_command(_: &mut Engine, args: &[&str]) -> Answer {
    Ok(COMMANDS.iter().any(|c| c.name == args[0]).to_string())
}

/// Every command of the table: controllers send optional commands only when they are listed.
pub fn list_commands(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Answers, then the serving loop stops after writing the answer.
pub fn quit(engine: &mut Engine, _: &[&str]) -> Answer {
    engine.quit = true;
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use crate::gtp::tests::{ask, engine};
    use crate::gtp::{is_identity_word, Engine, Options};

    #[test]
    fn name_and_version_are_tengens_unless_the_command_line_chose_them() {
        let mut e = engine();
        assert_eq!(ask(&mut e, "1 name"), "=1 tengen\n\n");
        assert_eq!(
            ask(&mut e, "2 version"),
            format!("=2 {}\n\n", env!("CARGO_PKG_VERSION"))
        );
        let mut e = Engine::new(&Options {
            override_version: Some("0.17".to_string()),
            ..Options::default()
        })
        .unwrap();
        assert_eq!(ask(&mut e, "1 name"), "=1 tengen\n\n");
        assert_eq!(ask(&mut e, "2 version"), "=2 0.17\n\n");
        let mut e = Engine::new(&Options {
            override_name: Some("KataGo-tengen".to_string()),
            ..Options::default()
        })
        .unwrap();
        assert_eq!(ask(&mut e, "1 name"), "=1 KataGo-tengen\n\n");
        assert_eq!(
            ask(&mut e, "2 version"),
            format!("=2 {}\n\n", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn an_identity_is_one_printable_word() {
        assert!(is_identity_word("0.17") && is_identity_word("KataGo-1.12.4"));
        for bad in [
            "",
            "0.17 beta",
            "0.17\n= x",
            "tab\there",
            "é",
            &"x".repeat(65),
        ] {
            assert!(!is_identity_word(bad), "{:?}", bad);
        }
    }
}
