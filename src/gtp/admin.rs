//! Administrative commands: who the engine is, what it understands, and `quit`.

use super::{Answer, Engine, COMMANDS};

pub fn protocol_version(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("2".to_string())
}

/// The name alone; the version has its own command.
pub fn name(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("tengen".to_string())
}

pub fn version(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(env!("CARGO_PKG_VERSION").to_string())
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
