//! Protocol Buffers' module system: `import "shop/v1/price.proto"` names a file by path, as
//! C's `#include` does (relative to the importing file, the workspace root, else the
//! shortest path ending in it: one of the workspace's proto roots), and reads its
//! definitions; a file no workspace path ends in (`google/protobuf/empty.proto`) is
//! outside. A family of its own, so a C or C++ call never binds a message of the same name.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::by_path;
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Proto;

impl ModuleSystem for Proto {
    fn name(&self) -> &'static str {
        "proto"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { closed_modules: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.rsplit_once('.').map_or(path, |(s, _)| s).to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        Some(by_path(t, &imp.file_path, &imp.module))
    }
}
