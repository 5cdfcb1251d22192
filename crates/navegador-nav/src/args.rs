//! Tool arguments: read from the JSON object with defaults, checked, and echoed back
//! normalized in `meta.query`. Every problem becomes one `details.issues` entry
//! `{field, message, type}` of an `INVALID_INPUT` answer, so a caller fixes all at once.

use serde_json::{json, Map, Value};

use crate::envelope::{code, ErrorItem};

pub struct Args<'a> {
    raw: &'a Map<String, Value>,
    issues: Vec<Value>,
    /// The normalized request (`meta.query`).
    pub query: Map<String, Value>,
}

impl<'a> Args<'a> {
    pub fn new(raw: &'a Map<String, Value>) -> Self {
        Args { raw, issues: Vec::new(), query: Map::new() }
    }

    fn issue(&mut self, field: &str, message: String, ty: &str) {
        self.issues.push(json!({"field": field, "message": message, "type": ty}));
    }

    /// Records a problem found after parsing (e.g. a regex that does not compile).
    pub fn reject(&mut self, field: &str, message: String, ty: &str) {
        self.issue(field, message, ty);
    }

    /// Whether the caller sent a (non-null) value for `field`.
    pub fn given(&self, field: &str) -> bool {
        self.get(field).is_some()
    }

    fn get(&self, field: &str) -> Option<&'a Value> {
        self.raw.get(field).filter(|v| !v.is_null())
    }

    /// A required string that is not blank.
    pub fn required_str(&mut self, field: &str) -> String {
        let v = match self.get(field) {
            None => {
                self.issue(field, "Field required.".into(), "missing");
                return String::new();
            }
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                self.issue(field, "Input should be a valid string.".into(), "string_type");
                return String::new();
            }
        };
        if v.trim().is_empty() {
            self.issue(field, "Value must not be empty or whitespace only.".into(), "value_error");
        }
        self.query.insert(field.into(), json!(v));
        v
    }

    /// An optional string; blank counts as a mistake (it cannot mean anything).
    pub fn optional_str(&mut self, field: &str) -> Option<String> {
        let v = match self.get(field) {
            None => None,
            Some(Value::String(s)) if s.trim().is_empty() => {
                self.issue(field, "Value must not be empty or whitespace only; omit the field instead.".into(), "value_error");
                None
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                self.issue(field, "Input should be a valid string.".into(), "string_type");
                None
            }
        };
        self.query.insert(field.into(), json!(v));
        v
    }

    pub fn int(&mut self, field: &str, default: i64, min: i64, max: i64) -> i64 {
        let v = self.optional_int(field, min, max).unwrap_or(default);
        self.query.insert(field.into(), json!(v));
        v
    }

    /// An optional integer in `min..=max` (not echoed: the caller decides the default).
    pub fn optional_int(&mut self, field: &str, min: i64, max: i64) -> Option<i64> {
        match self.get(field) {
            None => None,
            Some(v) => match v.as_i64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)) {
                None => {
                    self.issue(field, "Input should be a valid integer.".into(), "int_type");
                    None
                }
                Some(n) if n < min => {
                    self.issue(field, format!("Input should be greater than or equal to {min}."), "greater_than_equal");
                    None
                }
                Some(n) if n > max => {
                    self.issue(field, format!("Input should be less than or equal to {max}."), "less_than_equal");
                    None
                }
                Some(n) => Some(n),
            },
        }
    }

    pub fn bool(&mut self, field: &str, default: bool) -> bool {
        let v = match self.get(field) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                self.issue(field, "Input should be a valid boolean.".into(), "bool_type");
                default
            }
        };
        self.query.insert(field.into(), json!(v));
        v
    }

    /// An optional value of a closed set.
    pub fn optional_enum(&mut self, field: &str, allowed: &[&str]) -> Option<String> {
        let v = match self.get(field) {
            None => None,
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => Some(s.clone()),
            Some(other) => {
                let shown = other.as_str().map_or_else(|| other.to_string(), |s| format!("'{s}'"));
                self.issue(field, format!("Input should be one of {}; got {shown}.", quoted(allowed)), "enum");
                None
            }
        };
        self.query.insert(field.into(), json!(v));
        v
    }

    pub fn enum_or(&mut self, field: &str, allowed: &[&str], default: &str) -> String {
        let v = self.optional_enum(field, allowed).unwrap_or_else(|| default.to_string());
        self.query.insert(field.into(), json!(v));
        v
    }

    /// An optional list of strings.
    pub fn optional_str_list(&mut self, field: &str) -> Option<Vec<String>> {
        let v = match self.get(field) {
            None => None,
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
                Some(items.iter().map(|i| i.as_str().unwrap().to_string()).collect())
            }
            Some(_) => {
                self.issue(field, "Input should be a list of strings.".into(), "list_type");
                None
            }
        };
        v
    }

    /// Sets the echoed value of a field (after normalizing it).
    pub fn echo(&mut self, field: &str, v: Value) {
        self.query.insert(field.into(), v);
    }

    /// `Err(INVALID_INPUT)` when anything was wrong.
    pub fn finish(&mut self) -> Result<(), ErrorItem> {
        if self.issues.is_empty() {
            return Ok(());
        }
        // Echo what was sent for the fields in question, not the defaults that replaced them.
        for i in &self.issues {
            if let Some(f) = i["field"].as_str() {
                if let Some(v) = self.raw.get(f) {
                    self.query.insert(f.to_string(), v.clone());
                }
            }
        }
        let fields: Vec<String> =
            self.issues.iter().filter_map(|i| i["field"].as_str().map(|f| format!("`{f}`"))).collect();
        Err(ErrorItem::new(code::INVALID_INPUT, format!("Invalid arguments: {}.", fields.join(", ")))
            .suggestion("Fix the fields listed in details.issues and call again; the tool's input schema gives each field's type and range.")
            .detail("issues", Value::Array(std::mem::take(&mut self.issues))))
    }
}

fn quoted(allowed: &[&str]) -> String {
    allowed.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ")
}
