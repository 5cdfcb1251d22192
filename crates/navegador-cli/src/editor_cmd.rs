//! `navegador editor setup CLIENT [--write]`: the MCP configuration an agent client needs to
//! start navegador on this workspace. Without `--write` it prints the snippet; with it, the
//! entry is merged into the client's config file (other servers and settings are kept, the
//! file is replaced atomically, and a file we cannot parse is left untouched with an error
//! that shows what to add by hand).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::{json, Map, Value};

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Client {
    /// OpenCode: `opencode.json` in the workspace (or ~/.config/opencode/opencode.json with --global)
    Opencode,
    /// Claude Code: `.mcp.json` in the workspace (project scope)
    ClaudeCode,
    /// Cursor: `.cursor/mcp.json` in the workspace (or ~/.cursor/mcp.json with --global)
    Cursor,
    /// VS Code (Copilot agent mode): `.vscode/mcp.json` in the workspace
    Vscode,
    /// Codex CLI: `$CODEX_HOME/config.toml` (default ~/.codex/config.toml; always global)
    Codex,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Server {
    /// `navegador mcp`: navegador's 11 tools and the six code.* tools
    Navegador,
    /// `navigation-mcp`: the six code.* tools alone (the original server's drop-in)
    Navigation,
}

#[derive(clap::Subcommand)]
pub enum EditorCommand {
    /// Print (or with --write, merge into the client's config) the MCP server entry.
    Setup(SetupArgs),
}

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: EditorCommand,
}

#[derive(clap::Args)]
pub struct SetupArgs {
    /// The agent client to configure.
    #[arg(value_enum)]
    client: Client,
    /// Merge the entry into the client's configuration file instead of printing it.
    #[arg(long)]
    write: bool,
    /// The workspace the server serves (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    workspace_root: PathBuf,
    /// Which server to start.
    #[arg(long, value_enum, default_value = "navegador")]
    server: Server,
    /// The entry's name in the client's server list.
    #[arg(long, default_value = "navegador")]
    name: String,
    /// The executable to start (default: this navegador, or navigation-mcp beside it).
    #[arg(long, value_name = "PATH")]
    command: Option<PathBuf>,
    /// Write the user-level config instead of the workspace's (opencode, cursor).
    #[arg(long)]
    global: bool,
    /// Extra arguments for the server, e.g. --extra=--read-only (repeatable).
    #[arg(long = "extra", value_name = "ARG", allow_hyphen_values = true)]
    extra: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    match a.command {
        EditorCommand::Setup(s) => setup(s),
    }
}

/// The command line the client runs.
struct Launch {
    command: String,
    args: Vec<String>,
}

fn launch(a: &SetupArgs, root: &Path) -> anyhow::Result<Launch> {
    let me = std::env::current_exe().context("cannot find this executable's path; pass --command")?;
    let command = match (&a.command, a.server) {
        (Some(c), _) => c.clone(),
        (None, Server::Navegador) => me,
        (None, Server::Navigation) => me.with_file_name(format!("navigation-mcp{}", std::env::consts::EXE_SUFFIX)),
    };
    let root = root.to_string_lossy().into_owned();
    let mut args: Vec<String> = match a.server {
        Server::Navegador => vec!["mcp".into(), "--workspace-root".into(), root],
        Server::Navigation => vec!["--transport".into(), "stdio".into(), "--workspace-root".into(), root],
    };
    args.extend(a.extra.iter().cloned());
    Ok(Launch { command: command.to_string_lossy().into_owned(), args })
}

fn home() -> anyhow::Result<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).context("HOME is not set; cannot find the user config")
}

/// Where the client reads its configuration.
fn config_path(client: Client, root: &Path, global: bool) -> anyhow::Result<PathBuf> {
    Ok(match (client, global) {
        (Client::Opencode, false) => root.join("opencode.json"),
        (Client::Opencode, true) => {
            let base = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
            base.map_or_else(|| home().map(|h| h.join(".config")), Ok)?.join("opencode").join("opencode.json")
        }
        (Client::ClaudeCode, false) => root.join(".mcp.json"),
        (Client::ClaudeCode, true) => bail!(
            "Claude Code keeps user-level servers in its own state; run `claude mcp add --scope user` with the command printed by `navegador editor setup claude-code`, or drop --global for the project's .mcp.json"
        ),
        (Client::Cursor, false) => root.join(".cursor").join("mcp.json"),
        (Client::Cursor, true) => home()?.join(".cursor").join("mcp.json"),
        (Client::Vscode, false) => root.join(".vscode").join("mcp.json"),
        (Client::Vscode, true) => bail!("VS Code's user-level MCP servers live in its settings UI (`MCP: Open User Configuration`); drop --global for the workspace's .vscode/mcp.json"),
        (Client::Codex, _) => std::env::var_os("CODEX_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .map_or_else(|| home().map(|h| h.join(".codex")), Ok)?
            .join("config.toml"),
    })
}

/// The server entry in the client's JSON shape: (path of keys to the server table, entry).
fn json_entry(client: Client, l: &Launch) -> (&'static [&'static str], Value) {
    match client {
        Client::Opencode => {
            let mut cmd = vec![l.command.clone()];
            cmd.extend(l.args.iter().cloned());
            (&["mcp"], json!({"type": "local", "command": cmd, "enabled": true}))
        }
        Client::ClaudeCode | Client::Cursor => (&["mcpServers"], json!({"command": l.command, "args": l.args})),
        Client::Vscode => (&["servers"], json!({"type": "stdio", "command": l.command, "args": l.args})),
        Client::Codex => unreachable!("codex is TOML"),
    }
}

fn toml_entry(name: &str, l: &Launch) -> toml_edit::DocumentMut {
    let mut doc = toml_edit::DocumentMut::new();
    let mut servers = toml_edit::Table::new();
    servers.set_implicit(true);
    let mut t = toml_edit::Table::new();
    t["command"] = toml_edit::value(l.command.clone());
    let mut args = toml_edit::Array::new();
    for a in &l.args {
        args.push(a.as_str());
    }
    t["args"] = toml_edit::value(args);
    servers.insert(name, toml_edit::Item::Table(t));
    doc.insert("mcp_servers", toml_edit::Item::Table(servers));
    doc
}

fn setup(a: SetupArgs) -> anyhow::Result<ExitCode> {
    let root = crate::db::workspace_root(&a.workspace_root)?;
    let l = launch(&a, &root)?;
    let path = config_path(a.client, &root, a.global)?;
    let snippet = render(a.client, &a.name, &l);
    if !a.write {
        println!("# {} ({}):", client_name(a.client), path.display());
        println!("{snippet}");
        if a.client == Client::ClaudeCode {
            let mut cmd = format!("claude mcp add {} -- {}", a.name, shell_quote(&l.command));
            for arg in &l.args {
                cmd.push(' ');
                cmd.push_str(&shell_quote(arg));
            }
            println!("# or: {cmd}");
        }
        eprintln!("(print only; pass --write to merge this into {})", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let existing = match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => bail!("cannot read {}: {e}", path.display()),
    };
    let merged = merge(a.client, &a.name, &l, existing.as_deref()).map_err(|why| {
        anyhow::anyhow!("{} was left unchanged: {why}. Add this entry by hand:\n{snippet}", path.display())
    })?;
    if existing.as_deref() == Some(merged.as_str()) {
        eprintln!("{} already has this `{}` entry; nothing to do", path.display(), a.name);
        return Ok(ExitCode::SUCCESS);
    }
    write_atomically(&path, &merged)?;
    eprintln!(
        "{} `{}` in {} ({})",
        if existing.is_some() { "merged" } else { "wrote" },
        a.name,
        path.display(),
        client_name(a.client)
    );
    Ok(ExitCode::SUCCESS)
}

fn client_name(c: Client) -> &'static str {
    match c {
        Client::Opencode => "OpenCode",
        Client::ClaudeCode => "Claude Code",
        Client::Cursor => "Cursor",
        Client::Vscode => "VS Code",
        Client::Codex => "Codex",
    }
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The snippet for a client that has no config yet.
fn render(client: Client, name: &str, l: &Launch) -> String {
    merge(client, name, l, None).expect("a fresh config always renders")
}

/// The client's config with our entry set (added or replaced), everything else kept.
fn merge(client: Client, name: &str, l: &Launch, existing: Option<&str>) -> Result<String, String> {
    if client == Client::Codex {
        let mut doc: toml_edit::DocumentMut = match existing {
            Some(s) => s.parse().map_err(|e| format!("it is not valid TOML ({e})"))?,
            None => toml_edit::DocumentMut::new(),
        };
        let entry = toml_entry(name, l);
        let servers = doc.entry("mcp_servers").or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        });
        let Some(servers) = servers.as_table_mut() else {
            return Err("its `mcp_servers` is not a table".into());
        };
        servers.insert(name, entry["mcp_servers"][name].clone());
        return Ok(doc.to_string());
    }
    let mut root: Value = match existing.map(str::trim) {
        None | Some("") => Value::Object(Map::new()),
        Some(s) => serde_json::from_str(s).map_err(|e| format!("it is not plain JSON ({e}; comments are not merged automatically)"))?,
    };
    if client == Client::Opencode && existing.is_none() {
        root["$schema"] = json!("https://opencode.ai/config.json");
    }
    let (keys, entry) = json_entry(client, l);
    let mut table = &mut root;
    for k in keys {
        let Some(obj) = table.as_object_mut() else {
            return Err(format!("`{k}`'s parent is not an object"));
        };
        table = obj.entry(k.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
    let Some(servers) = table.as_object_mut() else {
        return Err(format!("`{}` is not an object", keys.join(".")));
    };
    servers.insert(name.to_string(), entry);
    Ok(serde_json::to_string_pretty(&root).expect("JSON") + "\n")
}

fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = dir.join(format!(".{}.navegador-tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("config")));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l() -> Launch {
        Launch { command: "/bin/navegador".into(), args: vec!["mcp".into(), "--workspace-root".into(), "/w".into()] }
    }

    #[test]
    fn merges_keep_other_entries() {
        let before = r#"{"mcpServers": {"other": {"command": "x"}}, "theme": "dark"}"#;
        let out: Value = serde_json::from_str(&merge(Client::Cursor, "navegador", &l(), Some(before)).unwrap()).unwrap();
        assert_eq!(out["mcpServers"]["other"]["command"], "x");
        assert_eq!(out["theme"], "dark");
        assert_eq!(out["mcpServers"]["navegador"]["args"][0], "mcp");
        // Idempotent.
        let again = merge(Client::Cursor, "navegador", &l(), Some(&serde_json::to_string_pretty(&out).unwrap())).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), out);
    }

    #[test]
    fn client_shapes() {
        let oc: Value = serde_json::from_str(&render(Client::Opencode, "navegador", &l())).unwrap();
        assert_eq!(oc["mcp"]["navegador"]["type"], "local");
        assert_eq!(oc["mcp"]["navegador"]["command"][0], "/bin/navegador");
        assert_eq!(oc["$schema"], "https://opencode.ai/config.json");
        let vs: Value = serde_json::from_str(&render(Client::Vscode, "navegador", &l())).unwrap();
        assert_eq!(vs["servers"]["navegador"]["type"], "stdio");
        let cc: Value = serde_json::from_str(&render(Client::ClaudeCode, "navegador", &l())).unwrap();
        assert_eq!(cc["mcpServers"]["navegador"]["command"], "/bin/navegador");
        let codex = render(Client::Codex, "navegador", &l());
        assert!(codex.contains("[mcp_servers.navegador]"), "{codex}");
        assert!(codex.contains(r#"args = ["mcp", "--workspace-root", "/w"]"#), "{codex}");
    }

    #[test]
    fn codex_merge_keeps_the_rest() {
        let before = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let out = merge(Client::Codex, "navegador", &l(), Some(before)).unwrap();
        assert!(out.starts_with("model = \"o3\""), "{out}");
        assert!(out.contains("[mcp_servers.other]") && out.contains("[mcp_servers.navegador]"), "{out}");
    }

    #[test]
    fn unparsable_configs_are_refused() {
        assert!(merge(Client::Vscode, "n", &l(), Some("{ // comment\n }")).unwrap_err().contains("not plain JSON"));
        assert!(merge(Client::Codex, "n", &l(), Some("= broken")).unwrap_err().contains("not valid TOML"));
        assert!(merge(Client::Cursor, "n", &l(), Some(r#"{"mcpServers": 3}"#)).is_err());
    }
}
