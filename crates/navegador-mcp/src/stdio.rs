//! The stdio transport: one JSON-RPC message per line, and an answer for every request.
//!
//! It replaces rmcp's line reader (`transport::async_rw`), which drops what it cannot parse
//! without a word: invalid JSON, a request of the wrong shape (answered without its `id`),
//! a line over 16 MiB. A client then waits for an answer that never comes. Here each of
//! those is answered ([`crate::jsonrpc`]): `-32700` for invalid JSON, `-32600`/`-32602`
//! with the request's `id`, and for an oversize line an error with the `id` read from its
//! first bytes, after which reading goes on with the next line. A request whose `id` is
//! still in flight is refused (`-32600`): rmcp's service keeps one pending entry per id,
//! so of two such requests one answer was lost and the other request cancelled. Writing
//! is rmcp's codec.

use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::sync::Arc;

use futures::SinkExt;
use rmcp::model::{ClientNotification, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::JsonRpcMessageCodec;
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};
use tokio::sync::Mutex;
use tokio_util::codec::FramedWrite;

use crate::jsonrpc;

/// The longest line read as a message (rmcp's limit, and the HTTP client's event size).
pub const MAX_LINE: usize = 16 * 1024 * 1024;
/// How much of an oversize line is kept to find its `id`.
const HEAD: usize = 64 * 1024;

type Writer<W> = FramedWrite<W, JsonRpcMessageCodec<TxJsonRpcMessage<RoleServer>>>;

/// A server transport over a byte stream pair (stdin/stdout).
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// The first bytes of an oversize line being skipped; `Some` until its newline.
    skipping: Option<Vec<u8>>,
    write: Arc<Mutex<Option<Writer<W>>>>,
    /// Error answers not yet written, and whether the first is already in the writer's
    /// buffer (so a `receive` cancelled between feeding and flushing does not send it
    /// twice).
    pending: VecDeque<ServerJsonRpcMessage>,
    fed: bool,
    /// Ids of the requests handed to the server and not answered (nor cancelled) yet.
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<R, W> {
    pub fn new(read: R, write: W) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: None,
            write: Arc::new(Mutex::new(Some(FramedWrite::new(write, JsonRpcMessageCodec::default())))),
            pending: VecDeque::new(),
            fed: false,
            in_flight: Arc::default(),
        }
    }
}

/// One step of reading.
enum Read {
    Line,
    /// A line over [`MAX_LINE`] ended (or began to be skipped): its first bytes.
    TooLong(Vec<u8>),
    Eof,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<R, W> {
    /// Reads one line into `self.line`, never holding more than [`MAX_LINE`] bytes. State
    /// lives on `self` and no await sits between copying bytes and consuming them, so a
    /// cancelled call (the service polls `receive` in a `select!`) resumes where it was.
    async fn read_line(&mut self) -> std::io::Result<Read> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Read::Eof);
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            if let Some(head) = &mut self.skipping {
                let room = HEAD.saturating_sub(head.len()).min(take);
                head.extend_from_slice(&available[..room]);
                self.read.consume(take);
                if newline.is_some() {
                    return Ok(Read::TooLong(self.skipping.take().unwrap_or_default()));
                }
                continue;
            }
            if self.line.len() + take > MAX_LINE {
                let mut head = std::mem::take(&mut self.line);
                head.truncate(HEAD);
                let room = HEAD.saturating_sub(head.len()).min(take);
                head.extend_from_slice(&available[..room]);
                self.read.consume(take);
                self.line.shrink_to(64 * 1024);
                if newline.is_some() {
                    return Ok(Read::TooLong(head));
                }
                self.skipping = Some(head);
                continue;
            }
            self.line.extend_from_slice(&available[..take]);
            self.read.consume(take);
            if newline.is_some() {
                return Ok(Read::Line);
            }
        }
    }

    /// Tracks the requests in flight: a second request with the `id` of one not answered
    /// yet is refused; a cancellation frees its id.
    fn admit(&self, msg: &RxJsonRpcMessage<RoleServer>) -> Result<(), ServerJsonRpcMessage> {
        let mut in_flight = self.in_flight.lock().unwrap();
        match msg {
            JsonRpcMessage::Request(r) if !in_flight.insert(r.id.clone()) => {
                let error = ErrorData::invalid_request(
                    format!(
                        "request id {} is already in use by a request in progress; give each request a new id",
                        serde_json::to_string(&r.id).unwrap_or_default()
                    ),
                    None,
                );
                Err(ServerJsonRpcMessage::error(error, Some(r.id.clone())))
            }
            JsonRpcMessage::Notification(n) => {
                if let ClientNotification::CancelledNotification(c) = &n.notification {
                    if let Some(id) = &c.params.request_id {
                        in_flight.remove(id);
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Writes the queued error answers.
    async fn flush_pending(&mut self) -> bool {
        while let Some(msg) = self.pending.front() {
            let mut guard = self.write.lock().await;
            let Some(w) = guard.as_mut() else { return false };
            if !self.fed {
                if w.feed(msg.clone()).await.is_err() {
                    return false;
                }
                self.fed = true;
            }
            if w.flush().await.is_err() {
                return false;
            }
            self.fed = false;
            self.pending.pop_front();
        }
        true
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(&mut self, item: TxJsonRpcMessage<RoleServer>) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answered = match &item {
            JsonRpcMessage::Response(r) => Some(&r.id),
            JsonRpcMessage::Error(e) => e.id.as_ref(),
            _ => None,
        };
        if let Some(id) = answered {
            self.in_flight.lock().unwrap().remove(id);
        }
        let lock = self.write.clone();
        async move {
            let mut w = lock.lock().await;
            match w.as_mut() {
                Some(w) => w.send(item).await.map_err(Into::into),
                None => Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed")),
            }
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if !self.flush_pending().await {
                return None;
            }
            match self.read_line().await {
                Ok(Read::Line) => {}
                Ok(Read::TooLong(head)) => {
                    tracing::warn!(limit = MAX_LINE, "a message over the line limit was refused");
                    self.pending.push_back(jsonrpc::too_large(&head, MAX_LINE).response());
                    continue;
                }
                Ok(Read::Eof) => return None,
                Err(e) => {
                    tracing::error!("cannot read stdin: {e}");
                    return None;
                }
            }
            let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                self.line.clear();
                continue;
            }
            let parsed = jsonrpc::parse(line);
            self.line.clear();
            match parsed {
                Ok(msg) => match self.admit(&msg) {
                    Ok(()) => return Some(msg),
                    Err(refusal) => self.pending.push_back(refusal),
                },
                Err(r) if r.notification => tracing::debug!("ignored a malformed notification: {}", r.error.message),
                Err(r) => {
                    tracing::debug!("refused a message: {}", r.error.message);
                    self.pending.push_back(r.response());
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut w = self.write.lock().await;
        if let Some(mut w) = w.take() {
            let _ = w.flush().await;
        }
        Ok(())
    }
}
