//! Administrative commands: who the engine is, what it understands, and `quit`.

use super::{arity, Engine, Reply, COMMANDS};

pub fn protocol_version(_: &mut Engine, args: &[&str]) -> Reply {
    arity("protocol_version", args, 0, 0)?;
    Ok("2".to_string())
}

/// The name alone; the version has its own command.
pub fn name(_: &mut Engine, args: &[&str]) -> Reply {
    arity("name", args, 0, 0)?;
    Ok("tengen".to_string())
}

pub fn version(_: &mut Engine, args: &[&str]) -> Reply {
    arity("version", args, 0, 0)?;
    Ok(env!("CARGO_PKG_VERSION").to_string())
}

pub fn known_command(_: &mut Engine, args: &[&str]) -> Reply {
    arity("known_command", args, 1, 1)?;
    Ok(COMMANDS.iter().any(|c| c.name == args[0]).to_string())
}

/// Every command of the table: controllers send optional commands only when they are listed.
pub fn list_commands(_: &mut Engine, args: &[&str]) -> Reply {
    arity("list_commands", args, 0, 0)?;
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Answers, then the serving loop stops after writing the answer.
pub fn quit(engine: &mut Engine, args: &[&str]) -> Reply {
    arity("quit", args, 0, 0)?;
    engine.quit = true;
    Ok(String::new())
}
