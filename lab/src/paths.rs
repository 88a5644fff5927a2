//! Where the lab's files live on this machine, for every room that needs them (the oracle finds
//! engines there, the sandbox keeps them in view).

use std::path::{Path, PathBuf};

/// The engine cache directory of `scripts/install-engines.sh`: `GDMARSHAL_ENGINE_CACHE`, else
/// `$XDG_CACHE_HOME/gdmarshal/engines`, else `$HOME/.cache/gdmarshal/engines`.
pub fn engine_cache() -> Option<PathBuf> {
    if let Some(dir) = non_empty_var("GDMARSHAL_ENGINE_CACHE") {
        return Some(PathBuf::from(dir));
    }
    let cache = non_empty_var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty_var("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(cache.join("gdmarshal").join("engines"))
}

fn non_empty_var(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.is_empty())
}
