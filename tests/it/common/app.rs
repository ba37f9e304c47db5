//! A staff member's browser against the web application's API (`/app/api`):
//! the session cookie kept by a cookie store, the CSRF token sent on every
//! change, as the UI does.

use reqwest::Method;
use serde_json::{Value, json};

use super::TestServer;

pub struct StaffClient {
    pub http: reqwest::Client,
    pub base: String,
    pub csrf: String,
    /// The session as `POST /app/api/session` answered it.
    pub session: Value,
}

impl StaffClient {
    /// Signs in; panics unless the answer is 200.
    pub async fn sign_in(server: &TestServer, email: &str, password: &str) -> StaffClient {
        Self::sign_in_at(&server.url(""), email, password).await
    }

    /// Signs in at the server of `base` (`http://127.0.0.1:PORT`); panics
    /// unless the answer is 200.
    pub async fn sign_in_at(base: &str, email: &str, password: &str) -> StaffClient {
        let http = crate::common::http_client_builder()
            .cookie_store(true)
            .build()
            .expect("client");
        let response = http
            .post(format!("{base}/app/api/session"))
            .json(&json!({ "email": email, "password": password }))
            .send()
            .await
            .expect("sign-in request");
        assert_eq!(response.status().as_u16(), 200, "sign-in of {email}");
        let session: Value = response.json().await.expect("session json");
        let csrf = session["csrfToken"]
            .as_str()
            .expect("csrf token")
            .to_owned();
        StaffClient {
            http,
            base: base.to_owned(),
            csrf,
            session,
        }
    }

    /// The same browser (its cookies, its CSRF token) at the server of
    /// `base`: several servers on one database.
    pub fn at(&self, base: &str) -> StaffClient {
        StaffClient {
            http: self.http.clone(),
            base: base.to_owned(),
            csrf: self.csrf.clone(),
            session: self.session.clone(),
        }
    }

    /// Sends a request to `/app/api{path}` and returns the status and the JSON
    /// body (`Value::Null` when there is none).
    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self
            .http
            .request(method.clone(), format!("{}/app/api{path}", self.base));
        if method != Method::GET {
            request = request.header("X-CSRF-Token", &self.csrf);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::POST, path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::PUT, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::PATCH, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.send(Method::DELETE, path, None).await
    }
}
