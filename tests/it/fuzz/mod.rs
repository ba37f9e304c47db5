//! Shared by the fuzz tests (`fuzz_*.rs`): the real router driven in-process
//! (tower's `oneshot`, no socket) over a temp data directory holding the
//! demo organization, and the check that a refusal is said in French.
#![allow(dead_code)]

use axum::body::{Body, Bytes};
use axum::http::{Request, Response};
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::demo::{DemoCredentials, DemoSize};
use liftdesk::state::AppState;
use liftdesk::store::Store;
use serde_json::Value;
use tower::ServiceExt as _;

pub struct App {
    pub runtime: tokio::runtime::Runtime,
    pub router: axum::Router,
    pub store: Store,
    pub creds: DemoCredentials,
    pub dir: tempfile::TempDir,
}

/// One answer: status, Content-Type and body bytes.
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: Bytes,
}

impl App {
    /// The demo organization, and a rate limit no fuzz run reaches (429 is
    /// tested elsewhere; here every case must reach the body's checks).
    pub fn start() -> App {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let dir = tempfile::tempdir().expect("dir");
        let store = crate::common::open_store(dir.path());
        let creds = liftdesk::demo::install(&store, DemoSize::Small, 1, liftdesk::clock::now())
            .expect("demo");
        let limit = RateLimit::parse("1000000/1000000").expect("limit");
        let router = runtime.block_on(async {
            let state = AppState::with_rate_limit(store.clone(), "http://127.0.0.1:9", limit);
            liftdesk::api::router(state)
        });
        App {
            runtime,
            router,
            store,
            creds,
            dir,
        }
    }

    pub fn send(&self, request: Request<Body>) -> Answer {
        self.runtime.block_on(async {
            let response: Response<Body> = self
                .router
                .clone()
                .oneshot(request)
                .await
                .expect("the router never fails");
            let status = response.status().as_u16();
            let content_type = response
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("body");
            Answer {
                status,
                content_type,
                body,
            }
        })
    }

    /// A POST of raw bytes with these headers.
    pub fn post(&self, path: &str, headers: &[(&str, &str)], body: Vec<u8>) -> Answer {
        let mut request = Request::post(path);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.send(request.body(Body::from(body)).expect("request"))
    }

    pub fn agency(&self, index: usize) -> &str {
        &self.creds.agencies[index].id
    }

    /// Equipment numbers of an agency's park.
    pub fn equipment_numbers(&self, agency: &str, count: usize) -> Vec<String> {
        let conn = crate::common::open_db(self.dir.path());
        let mut stmt = conn
            .prepare(
                "SELECT number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL
                 ORDER BY number LIMIT ?2",
            )
            .expect("prepare");
        stmt.query_map(liftdesk::store::params![agency, count as i64], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("numbers")
    }
}

/// proptest's settings for a fuzz property: that many cases, and a fixed
/// seed so a CI run is reproducible (`PROPTEST_RNG_SEED=N` explores
/// another part of the space; a failure report names its input).
pub fn config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let from_env = Config::default();
    Config {
        cases,
        // Shrinking replays requests against a database the failing case
        // already changed; a short shrink keeps the report readable.
        max_shrink_iters: 500,
        failure_persistence: None,
        rng_seed: match from_env.rng_seed {
            RngSeed::Random => RngSeed::Fixed(0x6C69_6674_6465_736B),
            fixed => fixed,
        },
        ..from_env
    }
}

/// Words of serde, axum, hyper or Rust that must never reach a caller.
const ENGLISH: [&str; 22] = [
    "missing field",
    "invalid type",
    "invalid value",
    "invalid length",
    "expected",
    "Failed to",
    "failed to",
    "unknown variant",
    "unknown field",
    "EOF while parsing",
    "trailing characters",
    "at line",
    "key must be",
    "recursion limit",
    "Invalid",
    "invalid",
    "error",
    "Error",
    "panicked",
    "unwrap",
    "Request",
    "body",
];

/// Words one of which any French sentence of ours holds.
const FRENCH: [&str; 24] = [
    " le ",
    " la ",
    " les ",
    " de ",
    " du ",
    " des ",
    " un ",
    " une ",
    " est ",
    " n'",
    " d'",
    " l'",
    "é",
    "è",
    "ê",
    "à",
    "ç",
    " ou ",
    " pas ",
    " en ",
    " au ",
    " pour ",
    " par ",
    "introuvable",
];

/// The text outside « … »: what the product wrote, not what it quotes back
/// of the caller's input (a field name or value may be anything).
fn own_words(message: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in message.chars() {
        match c {
            '«' => depth += 1,
            '»' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether `word` stands in `text` as a word of its own (« invalide » is
/// French, « invalid » is not).
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic)
    })
}

/// A refusal reason: non-empty, French, none of the libraries' English.
pub fn assert_french(message: &str, context: &str) {
    let own = own_words(message);
    assert!(!message.trim().is_empty(), "empty reason ({context})");
    assert!(
        message.chars().next().is_some_and(char::is_uppercase),
        "a reason starts with a capital: {message:?} ({context})"
    );
    for english in ENGLISH {
        assert!(
            !contains_word(&own, english),
            "English « {english} » in {message:?} ({context})"
        );
    }
    let padded = format!(" {} ", own.to_lowercase());
    assert!(
        FRENCH.iter().any(|w| padded.contains(w)),
        "not French: {message:?} ({context})"
    );
}

/// An error of the REST API v2 or the call-center API: exactly
/// `{"error": "<French>"}`, as JSON.
pub fn assert_error_body(answer: &Answer, context: &str) -> String {
    assert!(
        answer.content_type.starts_with("application/json"),
        "JSON error expected, got {:?} ({context})",
        answer.content_type
    );
    let value: Value = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|_| panic!("JSON error body ({context}): {:?}", answer.body));
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected: {value} ({context})"));
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["error"],
        "{value} ({context})"
    );
    let message = object["error"]
        .as_str()
        .unwrap_or_else(|| panic!("string error: {value} ({context})"));
    assert_french(message, context);
    message.to_owned()
}

/// An error of the partner workflow API: `{"status": "error", "message": "<French>"}`.
pub fn assert_workflow_error(answer: &Answer, context: &str) -> String {
    let value: Value = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|_| panic!("JSON error body ({context}): {:?}", answer.body));
    let mut keys: Vec<&String> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected: {value} ({context})"))
        .keys()
        .collect();
    keys.sort();
    assert_eq!(keys, ["message", "status"], "{value} ({context})");
    assert_eq!(value["status"], "error", "{value} ({context})");
    let message = value["message"]
        .as_str()
        .unwrap_or_else(|| panic!("string message: {value} ({context})"));
    assert_french(message, context);
    message.to_owned()
}

pub fn json_of(answer: &Answer) -> Value {
    serde_json::from_slice(&answer.body).unwrap_or(Value::Null)
}

// -- Strategies ----------------------------------------------------------------

pub mod arb {
    use proptest::prelude::*;
    use serde_json::{Map, Number, Value};

    /// Texts a caller may send: plain, any Unicode (controls, RTL marks,
    /// emoji), injections, and long runs of one character.
    pub fn text() -> BoxedStrategy<String> {
        prop_oneof![
            4 => "[a-zA-Z0-9 éèàçÉ'-]{0,24}",
            3 => any::<String>().prop_map(|s| s.chars().take(48).collect()),
            1 => prop::sample::select(vec![
                "",
                " ",
                "\u{0}",
                "\t\n\r",
                "\u{202e}gnp.exe",
                "😀🛗",
                "Ω≈ç√∫",
                "'; DROP TABLE calls; --",
                "%s%n%x",
                "../../../etc/passwd",
                "<script>alert(1)</script>",
                "null",
                "true",
                "1e999",
                "NaN",
                "\u{feff}",
                "\u{fffd}\u{fffd}",
            ])
            .prop_map(str::to_owned),
            1 => (prop::sample::select(vec!['a', 'é', ' ', '😀', '\u{0}', '"']), 100usize..20_000)
                .prop_map(|(c, n)| std::iter::repeat_n(c, n).collect()),
        ]
        .boxed()
    }

    /// Numbers, including those a JSON writer sends for integers (`1.0`).
    pub fn number() -> BoxedStrategy<Value> {
        prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
            prop::sample::select(vec![
                0.0,
                -0.0,
                1.0,
                3.0,
                0.5,
                1e300,
                -1e300,
                9.1e15,
                f64::MIN_POSITIVE
            ])
            .prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ]
        .boxed()
    }

    pub fn leaf() -> BoxedStrategy<Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            number(),
            text().prop_map(Value::String),
        ]
        .boxed()
    }

    /// Any JSON value, nested a few levels.
    pub fn value() -> BoxedStrategy<Value> {
        leaf()
            .prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    prop::collection::btree_map(text(), inner, 0..6)
                        .prop_map(|m| Value::Object(m.into_iter().collect())),
                ]
            })
            .boxed()
    }

    /// What is done to one field of a valid body.
    #[derive(Debug, Clone)]
    pub enum Edit {
        Remove(prop::sample::Index),
        Replace(prop::sample::Index, Value),
        Add(String, Value),
    }

    pub fn edit(extra_names: Vec<&'static str>) -> BoxedStrategy<Edit> {
        let name = prop_oneof![
            prop::sample::select(extra_names).prop_map(str::to_owned),
            text()
        ];
        prop_oneof![
            any::<prop::sample::Index>().prop_map(Edit::Remove),
            (any::<prop::sample::Index>(), value()).prop_map(|(i, v)| Edit::Replace(i, v)),
            (name, value()).prop_map(|(k, v)| Edit::Add(k, v)),
        ]
        .boxed()
    }

    pub fn apply(mut body: Map<String, Value>, edits: &[Edit]) -> Map<String, Value> {
        for edit in edits {
            match edit {
                Edit::Remove(index) if !body.is_empty() => {
                    let key = body.keys().nth(index.index(body.len())).cloned();
                    if let Some(key) = key {
                        body.remove(&key);
                    }
                }
                Edit::Replace(index, value) if !body.is_empty() => {
                    let key = body.keys().nth(index.index(body.len())).cloned();
                    if let Some(key) = key {
                        body.insert(key, value.clone());
                    }
                }
                Edit::Add(key, value) => {
                    body.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
        body
    }

    /// What is done to the JSON text: nothing, or a cut, a splice of bytes,
    /// a byte flipped, junk after it, or a number written as the caller
    /// wrote it (`1.0`, `1e999`, `-0`, a number of 40 digits).
    #[derive(Debug, Clone)]
    pub enum Garble {
        None,
        Truncate(prop::sample::Index),
        Insert(prop::sample::Index, Vec<u8>),
        Flip(prop::sample::Index, u8),
        Trailing(Vec<u8>),
        RawNumber(String),
    }

    pub fn garble() -> BoxedStrategy<Garble> {
        prop_oneof![
            24 => Just(Garble::None),
            1 => any::<prop::sample::Index>().prop_map(Garble::Truncate),
            1 => (any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 1..8))
                .prop_map(|(i, b)| Garble::Insert(i, b)),
            1 => (any::<prop::sample::Index>(), 1u8..=255).prop_map(|(i, x)| Garble::Flip(i, x)),
            1 => prop::collection::vec(any::<u8>(), 1..8).prop_map(Garble::Trailing),
            1 => prop::sample::select(vec![
                "1.0", "-0", "1e999", "-1e999", "1E2", "0.0000001", "123456789012345678901234567890",
                "-9223372036854775809", "18446744073709551616",
            ])
            .prop_map(|n| Garble::RawNumber(n.to_owned())),
        ]
        .boxed()
    }

    /// The JSON text of `body`, garbled: a raw number replaces the value
    /// of the body's first field.
    pub fn garbled(body: &Map<String, Value>, garble: &Garble) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(body).expect("json");
        match garble {
            Garble::None => {}
            Garble::Truncate(i) => bytes.truncate(i.index(bytes.len().max(1))),
            Garble::Insert(i, junk) => {
                let at = i.index(bytes.len() + 1);
                bytes.splice(at..at, junk.iter().copied());
            }
            Garble::Flip(i, x) => {
                if !bytes.is_empty() {
                    let at = i.index(bytes.len());
                    bytes[at] ^= x;
                }
            }
            Garble::Trailing(junk) => bytes.extend_from_slice(junk),
            Garble::RawNumber(number) => {
                if let Some(key) = body.keys().next() {
                    let mut copy = body.clone();
                    copy.insert(key.clone(), Value::String("\u{1}RAW\u{1}".to_owned()));
                    let text = serde_json::to_string(&copy).expect("json");
                    bytes = text.replace("\"\\u0001RAW\\u0001\"", number).into_bytes();
                }
            }
        }
        bytes
    }

    /// The Content-Type sent: mostly JSON, sometimes not, sometimes none.
    pub fn content_type() -> BoxedStrategy<Option<&'static str>> {
        prop_oneof![
            10 => Just(Some("application/json")),
            1 => prop::sample::select(vec![
                Some("application/json; charset=utf-8"),
                Some("APPLICATION/JSON"),
                Some("application/vnd.partner+json"),
                Some("text/plain"),
                Some("application/x-www-form-urlencoded"),
                Some("multipart/form-data; boundary=x"),
                Some("application/jsonx"),
                Some(""),
                None,
            ]),
        ]
        .boxed()
    }

    /// Whether the bytes are a JSON object by the grammar of RFC 8259
    /// (UTF-8, an object, well-formed; a number's range is not the
    /// grammar's business: `1e999` is well-formed).
    pub fn is_json_object(bytes: &[u8]) -> bool {
        std::str::from_utf8(bytes).is_ok()
            && bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
            && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
    }

    /// Whether the Content-Type declares JSON (`application/json` or `+json`).
    pub fn declares_json(content_type: Option<&str>) -> bool {
        content_type.is_some_and(|ct| {
            let mime = ct
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
    }
}
