//! Zig's module system: a file is a struct, named by its path; `const m = @import("m.zig")`
//! reads a file by its path (from the importing file, then as C's `#include`: the workspace
//! root, the shortest path ending in it) and binds it as `m`, so `m.f()` is its function
//! `f`; `@import("std")` and other names without `.zig` are packages the build maps
//! (outside). Modules are closed: a bare name is the file's or its container's.

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::by_path;
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Zig;

impl ModuleSystem for Zig {
    fn name(&self) -> &'static str {
        "zig"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { closed_modules: true, implicit_this: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, t: &Table, imp: &ImportRow, _depth: u32) -> Option<Target> {
        if !imp.module.ends_with(".zig") {
            return Some(Target::External);
        }
        Some(by_path(t, &imp.file_path, &imp.module))
    }
}
