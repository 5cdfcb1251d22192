//! GraphQL's module system: none. A schema's types, directives and an operation document's
//! fragments are one global namespace however the files split them, so a name (`implements
//! Node`, `...UserFields`) names the definition of any GraphQL file of the workspace; the
//! parts of a type (`type Query`, `extend type Query`) are one type (`open_classes`).

use navegador_model::Language;
use navegador_store::ImportRow;

use super::c::shared_definitions;
use super::system::{ModuleSystem, Rules};
use super::table::{Table, Target};

pub(crate) struct Graphql;

impl ModuleSystem for Graphql {
    fn name(&self) -> &'static str {
        "graphql"
    }

    fn rules(&self, _lang: Language) -> Rules {
        Rules { open_classes: true, ..Rules::default() }
    }

    fn module_key(&self, _lang: Language, path: &str, _declared: Option<&str>) -> String {
        path.to_string()
    }

    fn resolve_import(&self, _t: &Table, _imp: &ImportRow, _depth: u32) -> Option<Target> {
        None
    }

    fn shared_globals(&self, t: &Table, file: &str, name: &str) -> Vec<usize> {
        shared_definitions(t, t.fam_named(self.name()), file, name)
    }
}
