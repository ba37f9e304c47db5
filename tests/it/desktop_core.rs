//! What the desktop shell builds on: the data directory's lock, the port
//! fallback, and the daily backup task started with the server.

use crate::common;

use std::time::Duration;

use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::{backup, config, server};

#[test]
fn the_data_directory_lock_is_exclusive_and_released_on_drop() {
    let dir = tempfile::tempdir().expect("dir");
    assert!(!config::data_dir_in_use(dir.path()));
    let lock = config::lock_data_dir(dir.path()).expect("first lock");
    assert!(lock.path().ends_with("liftdesk.lock"));
    assert!(config::data_dir_in_use(dir.path()));
    let err = config::lock_data_dir(dir.path())
        .expect_err("second lock")
        .to_string();
    assert!(
        err.contains("est utilisé par un Liftdesk en cours d'exécution"),
        "{err}"
    );
    drop(lock);
    assert!(!config::data_dir_in_use(dir.path()));
    drop(config::lock_data_dir(dir.path()).expect("free again"));
}

#[tokio::test]
async fn a_taken_port_falls_back_to_a_free_one_with_a_french_message() {
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = taken.local_addr().expect("addr");
    let (listener, warning) = server::bind_with_fallback(addr).await.expect("fallback");
    let got = listener.local_addr().expect("addr");
    assert_ne!(got.port(), addr.port());
    assert!(got.ip().is_loopback());
    let warning = warning.expect("a message");
    assert!(
        warning.contains(&format!("Le port {} est déjà utilisé", addr.port())),
        "{warning}"
    );
    assert!(warning.contains(&got.port().to_string()), "{warning}");
    // A free port is taken as asked, without a message.
    drop(listener);
    let (again, none) = server::bind_with_fallback(got).await.expect("bind");
    assert_eq!(again.local_addr().expect("addr"), got);
    assert!(none.is_none());
}

#[tokio::test]
async fn the_server_takes_the_daily_backup_at_start_once_a_day() {
    let folder = tempfile::tempdir().expect("folder");
    let target = folder.path().to_owned();
    let server = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| state.with_backup_dir(target),
    )
    .await;
    let mut waited = Duration::ZERO;
    while backup::list_backups(folder.path())
        .expect("list")
        .is_empty()
    {
        assert!(waited < Duration::from_secs(10), "no backup at start");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    let first = backup::list_backups(folder.path()).expect("list");
    assert_eq!(first.len(), 1);
    backup::check_backup(&first[0].path).expect("sound");
    // Another start the same day into that folder: today's backup exists,
    // none more.
    let target = folder.path().to_owned();
    let second = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| state.with_backup_dir(target),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(backup::list_backups(folder.path()).expect("list").len(), 1);
    second.stop().await;
    server.stop().await;
}
