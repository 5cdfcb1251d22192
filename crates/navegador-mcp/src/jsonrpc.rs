//! What a transport does with bytes that are not a message it can hand to the server: every
//! request gets an answer. Invalid JSON is `-32700`; JSON that is not an MCP message is
//! `-32600` (or `-32602` when only its `params` are wrong), with the request's `id` whenever
//! one can be read, so the client's pending call ends instead of waiting forever. A
//! malformed notification (no `id`) is not answered, as JSON-RPC says. Shared by the
//! stdio transport and the HTTP body check.

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, JsonRpcRequest, RequestId, ServerJsonRpcMessage};
use serde_json::Value;

/// A message refused before the server saw it.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub error: ErrorData,
    pub id: Option<RequestId>,
    /// A notification: nothing is sent back (stdio); HTTP still answers the POST.
    pub notification: bool,
}

impl Refusal {
    fn new(error: ErrorData, id: Option<RequestId>) -> Self {
        Refusal { error, id, notification: false }
    }

    /// The JSON-RPC error response.
    pub fn response(&self) -> ServerJsonRpcMessage {
        ServerJsonRpcMessage::error(self.error.clone(), self.id.clone())
    }
}

/// One incoming message (a stdio line, an HTTP body): the message, or why not.
pub fn parse(bytes: &[u8]) -> Result<ClientJsonRpcMessage, Refusal> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = match serde_json::from_slice::<ClientJsonRpcMessage>(bytes) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return Err(Refusal::new(
                ErrorData::parse_error(format!("parse error: {e}; send each message as one JSON-RPC 2.0 object"), None),
                None,
            ))
        }
    };
    let Value::Object(obj) = &value else {
        let what = if value.is_array() {
            "batches are not supported: send one JSON-RPC message at a time (MCP does not batch)".to_string()
        } else {
            format!("invalid request: a JSON-RPC message is an object, not {}", kind(&value))
        };
        return Err(Refusal::new(ErrorData::invalid_request(what, None), None));
    };
    let id = obj.get("id").and_then(|v| serde_json::from_value::<RequestId>(v.clone()).ok());
    let method = obj.get("method").and_then(Value::as_str);
    if !obj.contains_key("id") {
        // A notification (or a response without id): never answered on stdio.
        let error = ErrorData::invalid_request(format!("invalid notification: {first}"), None);
        return Err(Refusal { error, id: None, notification: method.is_some() });
    }
    let (Some(id), Some(method)) = (id, method) else {
        let what = if obj.get("id").is_some_and(|v| !v.is_string() && !v.is_i64()) {
            "invalid request: `id` must be a string or an integer".to_string()
        } else {
            format!("invalid request: {first}; a request is {{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\", \"params\": {{}}}}")
        };
        return Err(Refusal::new(ErrorData::invalid_request(what, None), None));
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Refusal::new(ErrorData::invalid_request("invalid request: `jsonrpc` must be \"2.0\"", None), Some(id)));
    }
    let why = match obj.get("params") {
        Some(p) if !p.is_object() && !p.is_null() => {
            format!("`params` must be an object (MCP passes named parameters), not {}", kind(p))
        }
        _ => match serde_json::from_value::<JsonRpcRequest<ClientRequest>>(value.clone()) {
            Err(e) => e.to_string(),
            Ok(_) => first.to_string(),
        },
    };
    Err(Refusal::new(ErrorData::invalid_params(format!("invalid params for `{method}`: {why}"), None), Some(id)))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The answer to a message longer than the transport takes: `-32600`, with the `id` when
/// the start of the message (`head`) shows it.
pub fn too_large(head: &[u8], limit: usize) -> Refusal {
    let error = ErrorData::invalid_request(
        format!(
            "request too large: a message may be at most {} MiB ({limit} bytes); send smaller arguments",
            limit / (1024 * 1024)
        ),
        None,
    );
    Refusal::new(error, scan_id(head))
}

/// The top-level `"id"` of a JSON object read from its first bytes only (a message too
/// large to parse): found when it comes before the large part, as clients write it.
pub fn scan_id(head: &[u8]) -> Option<RequestId> {
    let mut s = Scanner { b: head, i: 0 };
    s.ws();
    s.eat(b'{')?;
    loop {
        s.ws();
        let key_start = s.i;
        s.string()?;
        let key = &head[key_start..s.i];
        s.ws();
        s.eat(b':')?;
        s.ws();
        let value_start = s.i;
        s.value()?;
        if key == b"\"id\"" {
            return serde_json::from_slice(&head[value_start..s.i]).ok();
        }
        s.ws();
        s.eat(b',')?;
    }
}

/// A forward-only JSON skimmer over a byte prefix: each step fails (`None`) when the prefix
/// ends first.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    fn string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                _ => self.i += 1,
            }
        }
    }

    /// Skips one value: a string, a nested object or array (brackets counted outside
    /// strings), or a scalar.
    fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while !matches!(self.peek()?, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n') {
                    self.i += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(bytes: &str) -> (i32, Option<RequestId>, bool) {
        let r = parse(bytes.as_bytes()).unwrap_err();
        (r.error.code.0, r.id, r.notification)
    }

    #[test]
    fn refusals_carry_the_id_when_there_is_one() {
        let n = |i| Some(RequestId::Number(i));
        assert_eq!(code("{not json"), (-32700, None, false));
        assert_eq!(code(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#), (-32600, None, false));
        assert_eq!(code("42"), (-32600, None, false));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1,2]}"#), (-32602, n(7), false));
        // Wrong field types inside `params` reach the server (rmcp reads it as a custom
        // request), which answers with the id.
        assert!(parse(br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}"#).is_ok());
        assert_eq!(code(r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#), (-32600, Some(RequestId::String("a".into())), false));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#), (-32600, None, false));
        assert_eq!(code(r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}"#).2, true);
        assert!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
        let array = parse(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1,2]}"#).unwrap_err();
        assert!(array.error.message.contains("`params` must be an object"), "{}", array.error.message);
    }

    #[test]
    fn ids_are_read_from_the_start_of_a_message() {
        let n = |i| Some(RequestId::Number(i));
        assert_eq!(scan_id(br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"a":"xxxx"#), n(12));
        assert_eq!(scan_id(br#" { "method" : "x", "params": {"k": ["}", {"id": 1}]}, "id": "s-1" , "#), Some(RequestId::String("s-1".into())));
        assert_eq!(scan_id(br#"{"jsonrpc":"2.0","method":"tools/call","params":{"a":"xxxx"#), None);
        assert_eq!(scan_id(br#"{"a":"\"id\": 3", "id": 4}"#), n(4));
        assert_eq!(scan_id(b"[1,2"), None);
    }
}
