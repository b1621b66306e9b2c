//! SQLite schema and the deterministic demo seed.
//!
//! Money is stored as integer minor units (cents) and formatted on output;
//! parts that never change after seeding (options, images, tags, attributes)
//! are JSON columns. Image URLs are stored as server paths (`/static/…`) and
//! made absolute with the server's origin on output.

use std::collections::HashSet;

use rusqlite::types::Type;
use rusqlite::{params, Connection, Row};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::util::iso_from_unix_millis;

/// The one store this server serves.
pub const STORE_ID: &str = "store_cirrus_demo";
/// Largest accepted `CIRRUS_SEED_PRODUCTS`.
pub const MAX_SEED_PRODUCTS: u32 = 10_000;
/// The store's `frontendDomain` unless CIRRUS_FRONTEND_DOMAIN names the storefront's own.
pub const DEFAULT_FRONTEND_DOMAIN: &str = "127.0.0.1:8787";

const SCHEMA: &str = r"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (hash BLOB PRIMARY KEY, prefix TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS products (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
  description TEXT NOT NULL, meta_title TEXT, meta_description TEXT,
  images TEXT NOT NULL, tags TEXT NOT NULL, options TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, profile_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS products_order ON products (status, created_at, id);
CREATE TABLE IF NOT EXISTS variants (
  id TEXT PRIMARY KEY, product_id TEXT NOT NULL REFERENCES products(id), position INTEGER NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents >= 0), compare_at_cents INTEGER,
  stock INTEGER NOT NULL CHECK (stock >= 0), image TEXT, attributes TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS variants_product ON variants (product_id, position);
CREATE TABLE IF NOT EXISTS collections (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, description TEXT NOT NULL,
  meta_title TEXT NOT NULL, meta_description TEXT NOT NULL, image TEXT, parent_id TEXT,
  position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS product_collections (
  product_id TEXT NOT NULL, collection_id TEXT NOT NULL, position INTEGER NOT NULL,
  PRIMARY KEY (product_id, collection_id));
CREATE INDEX IF NOT EXISTS product_collections_col ON product_collections (collection_id, position);
CREATE TABLE IF NOT EXISTS pages (
  id TEXT PRIMARY KEY, title TEXT NOT NULL, slug TEXT NOT NULL UNIQUE, content TEXT NOT NULL,
  page_type TEXT NOT NULL, frontend_id TEXT NOT NULL, meta_title TEXT NOT NULL,
  meta_description TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shipping_rates (
  id TEXT PRIMARY KEY, country TEXT NOT NULL, name TEXT NOT NULL, price_cents INTEGER NOT NULL,
  description TEXT NOT NULL, days_min INTEGER NOT NULL, days_max INTEGER NOT NULL,
  min_order_cents INTEGER, max_order_cents INTEGER, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shipping_profiles (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS profile_rates (
  profile_id TEXT NOT NULL, rate_id TEXT NOT NULL, PRIMARY KEY (profile_id, rate_id));
CREATE TABLE IF NOT EXISTS tax_rates (country TEXT PRIMARY KEY, bps INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, currency TEXT NOT NULL, items TEXT NOT NULL,
  subtotal INTEGER NOT NULL, shipping INTEGER NOT NULL, tax INTEGER NOT NULL,
  rate_id TEXT, address TEXT, payment_intent_id TEXT, token TEXT, attempt INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL,
  stock_pi TEXT, outcome TEXT, pi_status TEXT,
  sweep_at INTEGER NOT NULL DEFAULT 0, sweep_idle INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS orders (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL UNIQUE, payment_intent_id TEXT NOT NULL UNIQUE,
  amount INTEGER NOT NULL, currency TEXT NOT NULL, items TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  session_id TEXT NOT NULL, scope TEXT NOT NULL, generation INTEGER NOT NULL,
  PRIMARY KEY (session_id, scope));
";

/// Opens (creating if needed) the database at `path` (`:memory:` for tests),
/// migrates it and seeds it with `products` active products when empty.
///
/// # Errors
/// Any SQLite error.
pub fn open(path: &str, products: u32, hooks: bool) -> rusqlite::Result<Connection> {
    let conn = if path == ":memory:" {
        Connection::open_in_memory()?
    } else {
        if let Some(dir) = std::path::Path::new(path).parent() {
            if !dir.as_os_str().is_empty() {
                let _ = std::fs::create_dir_all(dir);
            }
        }
        let c = Connection::open(path)?;
        c.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: a commit (an order, a stock decrement, a session closed after a
        // captured payment) is on disk before the answer goes out. NORMAL in WAL
        // mode may lose the last commits on power loss: a charge without its order.
        c.pragma_update(None, "synchronous", "FULL")?;
        c
    };
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.execute_batch(SCHEMA)?;
    let seeded: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'seeded'", [], |r| r.get(0))
        .ok();
    if seeded.is_none() {
        let tx = conn.unchecked_transaction()?;
        seed(&tx, products)?;
        tx.execute("INSERT INTO meta (key, value) VALUES ('seeded', ?1)", [products.to_string()])?;
        tx.commit()?;
    }
    migrate(&conn)?;
    // The sanitizer probe exists for tests only: never written into a file database
    // (and removed from one an older server wrote it into).
    if hooks && path == ":memory:" {
        seed_xss_probe(&conn)?;
    } else if path != ":memory:" {
        remove_xss_probe(&conn)?;
    }
    Ok(conn)
}

/// Columns added after the first release, for databases created before them:
/// `sessions.stock_pi` (the PaymentIntent whose authorization holds the
/// session's stock), `sessions.outcome` (`stock_gone`), `sessions.pi_status`
/// (the payment's status as last read from the processor), and the sweep's
/// back-off of an idle session: `sessions.sweep_at` (unix seconds before which it
/// is not read again) and `sessions.sweep_idle` (idle reads in a row).
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let cols: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('sessions')")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let count = "INTEGER NOT NULL DEFAULT 0";
    for (col, ty) in [("stock_pi", "TEXT"), ("outcome", "TEXT"), ("pi_status", "TEXT"), ("sweep_at", count), ("sweep_idle", count)] {
        if !cols.iter().any(|c| c == col) {
            conn.execute_batch(&format!("ALTER TABLE sessions ADD COLUMN {col} {ty}"))?;
        }
    }
    // The sweep's two lists (checkout/sweep.rs): open sessions by status, and idle ones when due.
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS sessions_open_status ON sessions (completed, pi_status);
         CREATE INDEX IF NOT EXISTS sessions_open_due ON sessions (completed, sweep_at);",
    )?;
    Ok(())
}

/// Sets the store's `frontendDomain` (every start: the configuration decides, also for a
/// database seeded by an earlier run).
pub fn set_frontend_domain(conn: &Connection, domain: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE meta SET value = json_set(value, '$.frontendDomain', ?1) WHERE key = 'store'",
        [domain],
    )?;
    Ok(())
}

fn remove_xss_probe(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "DELETE FROM product_collections WHERE product_id = 'prod_xss_probe';
         DELETE FROM variants WHERE product_id = 'prod_xss_probe';
         DELETE FROM products WHERE id = 'prod_xss_probe';",
    )
}

/// splitmix64: a tiny deterministic generator, so the seed is the same everywhere.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    fn id(&mut self, prefix: &str) -> String {
        format!("{prefix}{:016x}", self.next())
    }
}

struct Leaf {
    slug: &'static str,
    name: &'static str,
    parent: &'static str,
    nouns: &'static [&'static str],
    options: &'static [(&'static str, &'static [&'static str])],
    price_min: i64,
    price_max: i64,
    materials: &'static [&'static str],
    profile: &'static str,
}

/// (slug, name, parent slug or "") for the two upper levels of the tree.
const BRANCHES: &[(&str, &str, &str)] = &[
    ("apparel", "Apparel", ""),
    ("home", "Home", ""),
    ("outdoors", "Outdoors", ""),
    ("sale", "Sale", ""),
    ("tops", "Tops", "apparel"),
    ("bottoms", "Bottoms", "apparel"),
    ("accessories", "Accessories", "apparel"),
    ("kitchen", "Kitchen", "home"),
    ("decor", "Decor", "home"),
    ("camping", "Camping", "outdoors"),
    ("travel", "Travel", "outdoors"),
];

const COLORS: &[&str] = &["Black", "White", "Navy", "Forest", "Sand", "Rust", "Slate"];

const LEAVES: &[Leaf] = &[
    Leaf { slug: "t-shirts", name: "T-Shirts", parent: "tops", nouns: &["T-Shirt", "Tee", "Pocket Tee", "Henley"], options: &[("Size", &["XS", "S", "M", "L", "XL"]), ("Color", COLORS), ("Fit", &["Regular", "Slim"])], price_min: 1800, price_max: 4500, materials: &["Organic Cotton", "Merino", "Linen", "Hemp", "Slub Cotton"], profile: "prof_standard" },
    Leaf { slug: "sweaters", name: "Sweaters", parent: "tops", nouns: &["Sweater", "Cardigan", "Crewneck", "Hoodie"], options: &[("Size", &["S", "M", "L", "XL"]), ("Color", COLORS)], price_min: 5500, price_max: 14000, materials: &["Merino", "Lambswool", "Cashmere Blend", "Brushed Fleece", "Cotton Knit"], profile: "prof_standard" },
    Leaf { slug: "jeans", name: "Jeans", parent: "bottoms", nouns: &["Jeans", "Chinos", "Trousers"], options: &[("Waist", &["28", "30", "32", "34", "36"]), ("Length", &["30", "32", "34"])], price_min: 6000, price_max: 12000, materials: &["Selvedge Denim", "Stretch Twill", "Organic Denim", "Canvas"], profile: "prof_standard" },
    Leaf { slug: "shorts", name: "Shorts", parent: "bottoms", nouns: &["Shorts", "Trail Shorts", "Swim Shorts"], options: &[("Size", &["S", "M", "L", "XL"]), ("Color", COLORS)], price_min: 2500, price_max: 5500, materials: &["Ripstop", "Linen", "Quick-Dry", "Organic Cotton"], profile: "prof_standard" },
    Leaf { slug: "hats", name: "Hats", parent: "accessories", nouns: &["Beanie", "Cap", "Bucket Hat", "Sun Hat"], options: &[("Color", COLORS)], price_min: 1500, price_max: 3800, materials: &["Merino", "Waxed Canvas", "Straw", "Recycled Fleece", "Cotton Twill"], profile: "prof_small" },
    Leaf { slug: "bags", name: "Bags", parent: "accessories", nouns: &["Tote", "Sling Bag", "Duffel", "Pouch"], options: &[("Color", COLORS), ("Material", &["Canvas", "Leather", "Nylon"])], price_min: 2400, price_max: 16000, materials: &["Waxed Canvas", "Leather", "Recycled Nylon", "Cordura"], profile: "prof_standard" },
    Leaf { slug: "cookware", name: "Cookware", parent: "kitchen", nouns: &["Skillet", "Dutch Oven", "Saucepan", "Wok"], options: &[("Size", &["20 cm", "24 cm", "28 cm"])], price_min: 3500, price_max: 22000, materials: &["Cast Iron", "Carbon Steel", "Stainless", "Enameled"], profile: "prof_bulky" },
    Leaf { slug: "mugs", name: "Mugs", parent: "kitchen", nouns: &["Mug", "Tumbler", "Espresso Cup"], options: &[("Color", COLORS)], price_min: 1200, price_max: 3200, materials: &["Stoneware", "Enamel", "Porcelain", "Double-Wall"], profile: "prof_small" },
    Leaf { slug: "candles", name: "Candles", parent: "decor", nouns: &["Candle", "Votive Set", "Travel Tin"], options: &[("Scent", &["Cedar", "Fig", "Sea Salt", "Amber"]), ("Size", &["Small", "Large"])], price_min: 1400, price_max: 4800, materials: &["Soy Wax", "Beeswax", "Coconut Wax"], profile: "prof_small" },
    Leaf { slug: "prints", name: "Prints", parent: "decor", nouns: &["Print", "Poster", "Map Print"], options: &[("Size", &["A4", "A3", "A2"]), ("Frame", &["None", "Oak", "Black"])], price_min: 2000, price_max: 9000, materials: &["Letterpress", "Risograph", "Giclee", "Screenprinted"], profile: "prof_small" },
    Leaf { slug: "tents", name: "Tents", parent: "camping", nouns: &["Tent", "Tarp Shelter", "Bivy"], options: &[("Capacity", &["1-person", "2-person", "3-person"])], price_min: 12000, price_max: 48000, materials: &["Ultralight", "Silnylon", "Four-Season", "Ripstop"], profile: "prof_bulky" },
    Leaf { slug: "lamps", name: "Lamps", parent: "camping", nouns: &["Lantern", "Headlamp", "String Lights"], options: &[("Color", COLORS)], price_min: 1900, price_max: 7900, materials: &["Rechargeable", "Solar", "Aluminium", "Brass"], profile: "prof_small" },
    Leaf { slug: "backpacks", name: "Backpacks", parent: "travel", nouns: &["Backpack", "Daypack", "Rolltop Pack"], options: &[("Volume", &["20 L", "30 L", "40 L"]), ("Color", COLORS)], price_min: 6500, price_max: 21000, materials: &["Waxed Canvas", "Recycled Nylon", "Cordura", "Ripstop"], profile: "prof_standard" },
    Leaf { slug: "bottles", name: "Bottles", parent: "travel", nouns: &["Bottle", "Flask", "Canteen"], options: &[("Size", &["500 ml", "750 ml", "1 L"]), ("Color", COLORS)], price_min: 1800, price_max: 4500, materials: &["Stainless", "Insulated", "Titanium", "Glass"], profile: "prof_small" },
];

const ADJECTIVES: &[&str] = &[
    "Alpine", "Harbor", "Summit", "Meadow", "Coastal", "Nordic", "Canyon", "Prairie", "Glacier",
    "Cedar", "Driftwood", "Ember", "Juniper", "Lowland", "Mistral", "Northwind", "Orchard",
    "Pioneer", "Quarry", "Ridge", "Saltmarsh", "Timber", "Upland", "Valley", "Willow",
];

/// Store configuration, as stored (image URLs are server paths).
fn store_json() -> serde_json::Value {
    json!({
        "id": STORE_ID, "name": "Cirrus Outfitters", "defaultCurrency": "USD",
        "contactEmail": "hello@cirrus-outfitters.example", "frontendDomain": DEFAULT_FRONTEND_DOMAIN,
        "logoUrl": "/static/brand/logo.svg", "logoHeightDesktop": 40, "logoHeightMobile": 28,
        "headerPaddingDesktop": 24, "headerPaddingMobile": 12, "faviconUrl": "/static/brand/favicon.svg",
        "emailLogoUrl": "/static/brand/email-logo.svg", "processingTimeMin": 1, "processingTimeMax": 2,
        "shippingTimeMin": 2, "shippingTimeMax": 8, "returnPeriodDays": 30, "refundTimeMin": 3,
        "refundTimeMax": 7, "businessHoursWeekdayOpen": "09:00", "businessHoursWeekdayClose": "18:00",
        "businessHoursWeekendOpen": "10:00", "businessHoursWeekendClose": "16:00",
        "routeProducts": "/products", "routeCollections": "/collections", "routePages": "/pages",
        "homeMetaTitle": "Cirrus Outfitters — clothing, home and outdoor goods",
        "homeMetaDescription": "Well-made everyday goods for the city and the trail. Free shipping over $100 in the US."
    })
}

/// Countries with shipping: (code, tax basis points, free-shipping threshold cents, standard cents,
/// express cents, freight cents, economy cents, standard days, express days).
type Country = (&'static str, i64, i64, i64, i64, i64, i64, (i64, i64), (i64, i64));
const COUNTRIES: &[Country] = &[
    ("US", 725, 10_000, 599, 1_499, 4_900, 349, (3, 7), (1, 2)),
    ("CA", 500, 15_000, 899, 2_499, 7_900, 599, (5, 10), (2, 4)),
    ("GB", 2_000, 15_000, 999, 2_999, 8_900, 699, (5, 9), (2, 3)),
    ("DE", 1_900, 15_000, 999, 2_999, 8_900, 699, (5, 9), (2, 3)),
    ("FR", 2_000, 15_000, 999, 2_999, 8_900, 699, (5, 9), (2, 3)),
    ("AU", 1_000, 20_000, 1_499, 3_999, 12_900, 999, (7, 14), (3, 5)),
];

fn seed_shipping(tx: &Connection) -> rusqlite::Result<()> {
    let mut rate = tx.prepare(
        "INSERT INTO shipping_rates (id, country, name, price_cents, description, days_min, days_max, min_order_cents, max_order_cents, position) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
    )?;
    let mut link = tx.prepare("INSERT INTO profile_rates (profile_id, rate_id) VALUES (?1, ?2)")?;
    for (name, id) in [("Standard", "prof_standard"), ("Small parcel", "prof_small"), ("Bulky goods", "prof_bulky")] {
        tx.execute("INSERT INTO shipping_profiles (id, name) VALUES (?1, ?2)", params![id, name])?;
    }
    for &(cc, bps, free_over, standard, express, freight, economy, (smin, smax), (emin, emax)) in COUNTRIES {
        tx.execute("INSERT INTO tax_rates (country, bps) VALUES (?1, ?2)", params![cc, bps])?;
        let lc = cc.to_ascii_lowercase();
        type RateSeed<'a> = (&'a str, &'a str, i64, String, (i64, i64), Option<i64>, Option<i64>, &'a [&'a str]);
        let rows: [RateSeed<'_>; 5] = [
            ("standard", "Standard", standard, format!("Tracked delivery in {smin}-{smax} business days"), (smin, smax), None, Some(free_over - 1), &["prof_standard", "prof_small", "prof_bulky"]),
            ("free", "Free standard", 0, format!("Free tracked delivery in {smin}-{smax} business days on orders over {}", crate::util::format_cents(free_over)), (smin, smax), Some(free_over), None, &["prof_standard", "prof_small", "prof_bulky"]),
            ("express", "Express", express, format!("Express courier in {emin}-{emax} business days"), (emin, emax), None, None, &["prof_standard", "prof_small"]),
            ("economy", "Economy letter post", economy, format!("Untracked letter post in {}-{} business days", smax, smax + 7), (smax, smax + 7), None, Some(4_999), &["prof_small"]),
            ("freight", "Freight", freight, format!("Two-person freight delivery in {}-{} business days", smin + 2, smax + 5), (smin + 2, smax + 5), None, None, &["prof_bulky"]),
        ];
        for (pos, (key, name, price, desc, (dmin, dmax), min, max, profiles)) in rows.into_iter().enumerate() {
            let id = format!("rate_{lc}_{key}");
            rate.execute(params![id, cc, name, price, desc, dmin, dmax, min, max, pos as i64])?;
            for p in profiles {
                link.execute(params![p, id])?;
            }
        }
    }
    Ok(())
}

fn seed_pages(tx: &Connection) -> rusqlite::Result<()> {
    let pages = [
        ("about", "About us", "<h1>About Cirrus Outfitters</h1><p>We make durable clothing, homeware and outdoor gear in small batches, and we repair what we sell.</p><p>Founded in 2019 by two climbers who were tired of gear that did not last.</p>"),
        ("shipping", "Shipping", "<h1>Shipping</h1><p>We ship to the United States, Canada, the United Kingdom, Germany, France and Australia.</p><ul><li>US: free standard shipping on orders over $100.00.</li><li>Express delivery for everything except bulky goods.</li><li>Orders leave our warehouse in 1-2 business days.</li></ul>"),
        ("returns", "Returns", "<h1>Returns</h1><p>Return anything unused within 30 days for a full refund. Refunds reach your card in 3-7 business days.</p>"),
        ("faq", "Frequently asked questions", "<h1>FAQ</h1><h2>Do you ship internationally?</h2><p>Yes, to six countries; see Shipping.</p><h2>Which cards do you accept?</h2><p>All major cards, processed by Stripe.</p><h2>Can I change my order?</h2><p>Write to us within two hours of ordering.</p>"),
    ];
    for (pos, (slug, title, content)) in pages.into_iter().enumerate() {
        let ts = iso_from_unix_millis(1_735_689_600_000 + pos as i64 * 86_400_000);
        tx.execute(
            "INSERT INTO pages (id, title, slug, content, page_type, frontend_id, meta_title, meta_description, created_at, updated_at, position) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?9,?10)",
            params![format!("page_{slug}"), title, slug, content, if slug == "faq" { "FAQ" } else { "CONTENT" }, format!("fe-{slug}"), format!("{title} | Cirrus Outfitters"), format!("{title} at Cirrus Outfitters."), ts, pos as i64],
        )?;
    }
    Ok(())
}

fn seed_collections(tx: &Connection) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare(
        "INSERT INTO collections (id, name, slug, description, meta_title, meta_description, image, parent_id, position) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
    )?;
    let all = BRANCHES.iter().map(|&(s, n, p)| (s, n, p)).chain(LEAVES.iter().map(|l| (l.slug, l.name, l.parent)));
    for (pos, (slug, name, parent)) in all.enumerate() {
        let image = json!({ "url": format!("/static/collections/{slug}.svg"), "alt": name }).to_string();
        let parent_id = (!parent.is_empty()).then(|| format!("col_{parent}"));
        stmt.execute(params![
            format!("col_{slug}"), name, slug,
            format!("Our {} collection: made to last, chosen with care.", name.to_lowercase()),
            format!("{name} | Cirrus Outfitters"), format!("Shop {} at Cirrus Outfitters.", name.to_lowercase()),
            image, parent_id, pos as i64
        ])?;
    }
    Ok(())
}

fn slugify(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Seeds everything; `active` ACTIVE products plus a few DRAFT and ARCHIVED ones.
fn seed(tx: &Connection, active: u32) -> rusqlite::Result<()> {
    tx.execute("INSERT INTO meta (key, value) VALUES ('store', ?1)", [store_json().to_string()])?;
    seed_shipping(tx)?;
    seed_pages(tx)?;
    seed_collections(tx)?;

    let mut rng = Rng(0x00C1_4405_5EED);
    let hidden = (active / 20).max(4);
    let total = active + hidden;
    let mut slugs = HashSet::new();
    let mut prod = tx.prepare(
        "INSERT INTO products (id, name, slug, status, description, meta_title, meta_description, images, tags, options, created_at, updated_at, profile_id) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
    )?;
    let mut var = tx.prepare(
        "INSERT INTO variants (id, product_id, position, price_cents, compare_at_cents, stock, image, attributes) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
    )?;
    let mut member = tx.prepare("INSERT INTO product_collections (product_id, collection_id, position) VALUES (?1,?2,?3)")?;
    let base_ms: i64 = 1_735_689_600_000; // 2025-01-01T00:00:00Z
    let mut created_ms = base_ms;
    for i in 0..total {
        // Every 7th product shares its creation time with the previous one, so the
        // id tie-break of the list order is exercised.
        if i % 7 != 6 {
            created_ms += 60_000 * (1 + rng.below(180) as i64);
        }
        // Spread the hidden products through the list: every (total/hidden)-th is hidden.
        let step = total / hidden;
        let status = if i % step == step / 2 && i / step < hidden {
            if (i / step).is_multiple_of(2) { "DRAFT" } else { "ARCHIVED" }
        } else {
            "ACTIVE"
        };
        let leaf = &LEAVES[rng.below(LEAVES.len() as u64) as usize];
        let adjective = *rng.pick(ADJECTIVES);
        let material = *rng.pick(leaf.materials);
        let noun = *rng.pick(leaf.nouns);
        let name = format!("{adjective} {material} {noun}");
        let mut slug = slugify(&name);
        if !slugs.insert(slug.clone()) {
            let mut n = 2;
            while !slugs.insert(format!("{slug}-{n}")) {
                n += 1;
            }
            slug = format!("{slug}-{n}");
        }
        let id = rng.id("prod_");
        let lc = leaf.name.to_lowercase();
        let material_lc = material.to_lowercase();
        let description = match i % 4 {
            0 => format!("The {name} is part of our {lc} range: {material_lc}, built for daily use and easy repair. Designed in small batches and tested for a year before it reached the shop."),
            1 => format!("A {material_lc} {noun_lc} that earns its place. The {name} is cut and finished by a family workshop we have worked with since 2019.", noun_lc = noun.to_lowercase()),
            2 => format!("Made to be used hard and kept for years: the {name} in {material_lc}. Covered by our repair promise, like everything in {lc}."),
            _ => format!("Our best-selling shape in {material_lc}. The {name} ships in recycled packaging and can be returned within 30 days."),
        };
        let n_images = 1 + rng.below(3);
        let images: Vec<_> = (1..=n_images)
            .map(|k| json!({ "url": format!("/static/products/{slug}-{k}.svg"), "alt": format!("{name}, view {k}") }))
            .collect();
        // Options: each uses a deterministic subset (2..=all) of the leaf's values.
        let mut options = Vec::new();
        let mut chosen: Vec<(&str, Vec<&str>)> = Vec::new();
        for (opos, (oname, values)) in leaf.options.iter().enumerate() {
            let n = if values.len() <= 2 { values.len() } else { 2 + rng.below(values.len() as u64 - 1) as usize };
            let start = rng.below((values.len() - n + 1) as u64) as usize;
            let vals: Vec<&str> = values[start..start + n].to_vec();
            let oid = rng.id("opt_");
            let jvals: Vec<_> = vals
                .iter()
                .enumerate()
                .map(|(vp, v)| json!({ "id": format!("{oid}_{vp}").replace("opt_", "optv_"), "value": v, "position": vp }))
                .collect();
            options.push(json!({ "id": oid, "name": oname, "displayStyle": "dropdown", "position": opos, "values": jvals }));
            chosen.push((oname, vals));
        }
        let base = leaf.price_min + rng.below(((leaf.price_max - leaf.price_min) / 100 + 1) as u64) as i64 * 100 - 1;
        let on_sale = rng.below(4) == 0;
        let mut tags = vec![leaf.slug.to_string(), slugify(material)];
        if on_sale {
            tags.push("sale".into());
        }
        if i % 5 == 0 {
            tags.push("bestseller".into());
        }
        let meta_title = (i % 3 != 0).then(|| format!("{name} | Cirrus Outfitters"));
        let meta_description = (i % 4 != 0).then(|| format!("Shop the {name} at Cirrus Outfitters."));
        let created = iso_from_unix_millis(created_ms);
        let updated = iso_from_unix_millis(created_ms + 3_600_000 * rng.below(500) as i64);
        prod.execute(params![
            id, name, slug, status, description, meta_title, meta_description,
            serde_json::Value::from(images).to_string(), serde_json::to_string(&tags).unwrap_or_default(),
            serde_json::Value::from(options).to_string(), created, updated, leaf.profile
        ])?;
        // Variants: the cartesian product of the chosen values.
        let mut combos: Vec<Vec<(usize, &str, &str)>> = vec![vec![]];
        for (oi, (oname, vals)) in chosen.iter().enumerate() {
            combos = combos
                .into_iter()
                .flat_map(|c| vals.iter().enumerate().map(move |(vi, v)| {
                    let mut c = c.clone();
                    c.push((oi * 10 + vi, *oname, *v));
                    c
                }))
                .collect();
        }
        for (vpos, combo) in combos.iter().enumerate() {
            let bump: i64 = combo.iter().map(|(k, _, _)| (*k % 10) as i64 * 200).sum();
            let price = base + bump;
            let compare = on_sale.then(|| (price * 5 / 4) / 100 * 100 + 99);
            let stock = if rng.below(8) == 0 { 0 } else { 1 + rng.below(40) as i64 };
            let attrs: serde_json::Map<String, serde_json::Value> =
                combo.iter().map(|(_, k, v)| ((*k).to_string(), json!(v))).collect();
            let image = combo.iter().find(|(_, k, _)| *k == "Color").map(|(_, _, v)| {
                json!({ "url": format!("/static/products/{slug}-{}.svg", slugify(v)), "alt": format!("{name} in {v}") }).to_string()
            });
            var.execute(params![rng.id("var_"), id, vpos as i64, price, compare, stock, image, serde_json::Value::from(attrs).to_string()])?;
        }
        member.execute(params![id, format!("col_{}", leaf.slug), i64::from(i)])?;
        if on_sale {
            member.execute(params![id, "col_sale", i64::from(i)])?;
        }
    }
    Ok(())
}

/// The sanitizer probe of ARCHITECTURE.md "Test hooks": an ACTIVE product whose
/// description holds markup, in the root collection `apparel`. Idempotent.
fn seed_xss_probe(conn: &Connection) -> rusqlite::Result<()> {
    let exists: bool = conn.query_row("SELECT EXISTS (SELECT 1 FROM products WHERE slug = 'xss-probe')", [], |r| r.get(0))?;
    if exists {
        return Ok(());
    }
    let tx = conn.unchecked_transaction()?;
    let ts = "2099-01-01T00:00:00.000Z";
    tx.execute(
        "INSERT INTO products (id, name, slug, status, description, meta_title, meta_description, images, tags, options, created_at, updated_at, profile_id) VALUES ('prod_xss_probe', 'XSS probe <b>bold</b>', 'xss-probe', 'ACTIVE', ?1, NULL, NULL, ?2, '[\"test\"]', '[]', ?3, ?3, 'prof_standard')",
        params![
            r#"<script>window.__xss=1</script><img src=x onerror="window.__xss=2">"#,
            json!([{ "url": "/static/products/xss-probe-1.svg", "alt": "<img src=x onerror=\"window.__xss=3\">" }]).to_string(),
            ts
        ],
    )?;
    tx.execute("INSERT INTO variants (id, product_id, position, price_cents, compare_at_cents, stock, image, attributes) VALUES ('var_xss_probe', 'prod_xss_probe', 0, 1000, NULL, 100, NULL, '{}')", [])?;
    tx.execute("INSERT INTO product_collections (product_id, collection_id, position) VALUES ('prod_xss_probe', 'col_apparel', 1000000)", [])?;
    tx.commit()
}

/// A JSON column of row `r`: a value that does not read is an error naming the column and
/// why (answered 500 `internal`, the detail logged), never a silent default.
pub fn stored_json<T: DeserializeOwned>(r: &Row<'_>, col: usize) -> rusqlite::Result<T> {
    let raw: String = r.get(col)?;
    serde_json::from_str(&raw).map_err(|e| {
        let name = r.as_ref().column_name(col).unwrap_or("?").to_owned();
        rusqlite::Error::FromSqlConversionFailure(col, Type::Text, format!("stored column {name} is not valid: {e}").into())
    })
}
