//! The cross-tab checkout lock (issue 12, item 8; issue 41: a courtesy). The
//! cart's checkout record is shared by all tabs through localStorage, and its
//! conditional writes keep a payment from being made twice with or without
//! this lock (the simulation shows it: docs/ARCHITECTURE.md). The lock's one
//! job is the second tab's buyer: told that the checkout is in progress in
//! another tab before entering a card, or choosing shipping, that the first
//! tab's payment would make moot.
//!
//! The lock belongs to the page, named after the checkout's storage key
//! (`cirrus.checkout.lock:<storageKey>`): `Checkout.start`, choosing shipping
//! and every *new* payment (a fresh token) ask for it; finishing a payment
//! that may exist never does. It is let go when the page's checkout ends,
//! when that checkout is freed with no payment unsettled, or when the page
//! goes away. A newer checkout in the same page takes it over.
//!
//! - **Web Locks** (`navigator.locks.request(name, { ifAvailable: true })`)
//!   where present: the browser frees the lock when the page goes away.
//! - Otherwise a **localStorage lease** `{ owner, until }` whose rules are
//!   [`crate::checkout::lease`] (the simulation runs them too), renewed every
//!   third of its life while held; a lease that ran out (the page's timers
//!   frozen) is another tab's to take, and then no longer this page's. The
//!   owner id is per page (never kept in sessionStorage, which a duplicated
//!   tab copies); a page lets its leases go on `pagehide`, so a reload takes
//!   the lease again at once.
//! - Neither (node, storage disabled): no lock; nothing else changes.

use std::cell::RefCell;

use js_sys::{Function, Object, Promise, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::js::get;
use super::listeners::EventListener;
use super::storage::{self, Store};
use super::timers::Interval;
use crate::checkout::lease::{self, Holder, LEASE_MS};
use crate::error::{Error, Result};

enum Release {
    /// The resolver of the promise the Web Lock callback returned.
    Web(Function),
    /// The renewal timer of a lease (cleared when dropped).
    Lease { _renew: Option<Interval> },
    /// No lock API: nothing is held.
    Nothing,
}

struct Held {
    name: String,
    owner: u32,
    release: Release,
}

thread_local! {
    static HELD: RefCell<Vec<Held>> = const { RefCell::new(Vec::new()) };
}

/// The lock's name for a checkout storage key.
pub(crate) fn name(storage_key: &str) -> String {
    format!("cirrus.checkout.lock:{storage_key}")
}

fn held_elsewhere() -> Error {
    Error::invalid_state(
        "a checkout for this cart is in progress in another tab; finish or cancel it there (or close that tab), then try again",
    )
}

/// Make this tab the lock's holder for checkout `owner`.
///
/// # Errors
/// `invalid_state` "a checkout for this cart is in progress in another tab…"
/// when another tab holds it.
pub(crate) async fn acquire(name: &str, owner: u32) -> Result<()> {
    let ours = HELD.with(|h| {
        let mut h = h.borrow_mut();
        h.iter_mut().find(|x| x.name == name).map(|x| {
            x.owner = owner;
            matches!(x.release, Release::Lease { .. })
        })
    });
    match ours {
        // A Web Lock is held until released: this page's memory is the truth.
        Some(false) => return Ok(()),
        // A lease may have expired and gone to another tab meanwhile.
        Some(true) if lease_still_ours(name) => return Ok(()),
        Some(true) => {
            let lost = HELD.with(|h| {
                let mut h = h.borrow_mut();
                h.iter().position(|x| x.name == name).map(|i| h.swap_remove(i))
            });
            if let Some(x) = lost {
                drop_release(x.release, name);
            }
        }
        None => {}
    }
    let release = match web_lock(name).await? {
        Some(r) => r,
        None => lease(name).await?,
    };
    HELD.with(|h| {
        let mut h = h.borrow_mut();
        if h.iter().any(|x| x.name == name) {
            // Taken meanwhile by another checkout of this tab: keep that one.
            drop_release(release, name);
        } else {
            h.push(Held { name: name.to_owned(), owner, release });
        }
    });
    Ok(())
}

/// Let the lock go if checkout `owner` holds it.
pub(crate) fn release(name: &str, owner: u32) {
    let held = HELD.with(|h| {
        let mut h = h.borrow_mut();
        let i = h.iter().position(|x| x.name == name && x.owner == owner)?;
        Some(h.swap_remove(i))
    });
    if let Some(x) = held {
        drop_release(x.release, name);
    }
}

fn drop_release(r: Release, name: &str) {
    match r {
        Release::Web(resolve) => drop(resolve.call0(&JsValue::NULL)),
        Release::Lease { .. } => {
            // the renewal timer stops when `r` is dropped
            if let Some(s) = local_storage() {
                if lease::mine_or_none(lease_of(&s, name), tab_id()) {
                    let _ = s.remove_item(name);
                }
            }
        }
        Release::Nothing => {}
    }
}

/// The Web Lock, if the API is there: `Ok(Some(release))` when taken,
/// `Err` when another tab holds it, `Ok(None)` without the API.
async fn web_lock(name: &str) -> Result<Option<Release>> {
    let Some(w) = web_sys::window() else { return Ok(None) };
    let locks = get(&w.navigator(), "locks");
    let Some(request) = (if locks.is_object() { get(&locks, "request").dyn_into::<Function>().ok() } else { None }) else {
        return Ok(None);
    };
    let mut got = None;
    let answer = Promise::new(&mut |resolve, _| got = Some(resolve));
    let Some(got) = got else { return Ok(None) };
    let give = got.clone();
    // Called with the lock (or null when it is held elsewhere); the lock is
    // held until the promise it returns settles, i.e. until `release` runs.
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        if lock.is_null() {
            let _ = give.call1(&JsValue::NULL, &JsValue::NULL);
            return JsValue::UNDEFINED;
        }
        Promise::new(&mut |release, _| drop(give.call1(&JsValue::NULL, &release))).into()
    });
    let options = Object::new();
    let _ = Reflect::set(&options, &JsValue::from_str("ifAvailable"), &JsValue::TRUE);
    let Ok(p) = request.call3(&locks, &JsValue::from_str(name), &options, &callback) else { return Ok(None) };
    // A refused request (an opaque origin, …) resolves `answer` with its error: no Web Locks then.
    if let Ok(catch) = get(&p, "catch").dyn_into::<Function>() {
        let _ = catch.call1(&p, &got);
    }
    match JsFuture::from(answer).await {
        Ok(v) if v.is_function() => Ok(Some(Release::Web(v.unchecked_into()))),
        Ok(v) if v.is_null() => Err(held_elsewhere()),
        _ => Ok(None),
    }
}

fn local_storage() -> Option<Store> {
    storage::local().ok().flatten()
}

/// This page's id: random per page, never kept in sessionStorage (a
/// duplicated tab gets a copy of it, and two tabs must never share an owner).
fn tab_id() -> String {
    thread_local! {
        static ID: RefCell<Option<String>> = const { RefCell::new(None) };
    }
    ID.with(|id| {
        id.borrow_mut()
            .get_or_insert_with(|| format!("tab-{}", (js_sys::Math::random() * 9.0e15) as u64))
            .clone()
    })
}

/// True when the stored lease `name` is this page's and not expired; then
/// it is renewed at once.
fn lease_still_ours(name: &str) -> bool {
    let Some(s) = local_storage() else { return true };
    lease::holder(lease_of(&s, name), tab_id(), js_sys::Date::now()) == Holder::Me && write_lease(&s, name)
}

/// Once per page: let every lease this page holds go when the page is
/// hidden for good (closed, reloaded, navigated away), as the browser does
/// with Web Locks.
fn release_leases_on_pagehide() {
    thread_local! {
        static ARMED: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }
    if ARMED.with(|a| a.replace(true)) {
        return;
    }
    let Some(w) = web_sys::window() else { return };
    let hide = EventListener::new(&w, "pagehide", |e: JsValue| {
        if get(&e, "persisted").is_truthy() {
            return; // kept in the back/forward cache: the page may come back
        }
        let leases: Vec<Held> = HELD.with(|h| {
            let mut h = h.borrow_mut();
            let (leases, rest) = core::mem::take(&mut *h).into_iter().partition(|x| matches!(x.release, Release::Lease { .. }));
            *h = rest;
            leases
        });
        for x in leases {
            drop_release(x.release, &x.name);
        }
    });
    if let Some(hide) = hide {
        hide.forget(); // one listener for the page's lifetime
    }
}

/// The lease stored under `name`: its owner and expiry.
fn lease_of(s: &Store, name: &str) -> Option<(String, f64)> {
    let v = super::js::parse_json(&s.get_item(name).ok()??).ok()?;
    Some((get(&v, "owner").as_string()?, get(&v, "until").as_f64()?))
}

fn write_lease(s: &Store, name: &str) -> bool {
    let v = Object::new();
    let _ = Reflect::set(&v, &JsValue::from_str("owner"), &JsValue::from_str(&tab_id()));
    let _ = Reflect::set(&v, &JsValue::from_str("until"), &JsValue::from_f64(lease::until(js_sys::Date::now())));
    JSON::stringify(&v).ok().and_then(|t| t.as_string()).is_some_and(|t| s.set_item(name, &t).is_ok())
}

/// The localStorage lease: refused while another tab's lease is live
/// ([`lease::holder`]), taken otherwise, then renewed while held (over
/// nothing or this page's own lease only: [`lease::mine_or_none`]). Two tabs
/// taking it in the same instant may both hold it: a courtesy lost, nothing
/// else (the module documentation).
async fn lease(name: &str) -> Result<Release> {
    let Some(s) = local_storage() else { return Ok(Release::Nothing) };
    if lease::holder(lease_of(&s, name), tab_id(), js_sys::Date::now()) == Holder::Other {
        return Err(held_elsewhere());
    }
    if !write_lease(&s, name) {
        return Ok(Release::Nothing); // a full or disabled storage: no lease to hold
    }
    release_leases_on_pagehide();
    let (store, key) = (s.clone(), name.to_owned());
    let renew = Interval::new(LEASE_MS / 3, move || {
        if lease::mine_or_none(lease_of(&store, &key), tab_id()) {
            write_lease(&store, &key);
        }
    });
    Ok(Release::Lease { _renew: renew })
}
