import Foundation

/// The PostgreSQL schema, as the same named migrations as SQLite's (``MigrationName``). Applied
/// by ``PostgresStore/migrate()`` under an advisory lock, so instances starting together apply
/// each migration once.
///
/// Text that listings sort or page by uses the "C" collation: byte-wise UTF-8 order, the order
/// the Domain's ``RestaurantRankKey`` and ``Identifier`` define. Times are milliseconds since the
/// epoch, as in SQLite, so both stores hold exactly the Domain's ``Timestamp``.
enum PostgresSchema {
    /// Migrations in order: a name and its statements, run in one transaction. (A statement
    /// ends with `;` at the end of a line: the extended query protocol runs one at a time.)
    static let migrations: [(name: String, sql: String)] = [
        (MigrationName.base, """
            CREATE TABLE users (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT NOT NULL,
                email TEXT NOT NULL,
                -- EmailAddress.uniquenessKey: uniqueness ignoring case, enforced by the index.
                email_key TEXT COLLATE "C" NOT NULL CONSTRAINT users_email_key_unique UNIQUE,
                joined_at BIGINT NOT NULL,
                is_active BOOLEAN NOT NULL,
                subscription_active_until BIGINT
            );

            CREATE TABLE restaurants (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT COLLATE "C" NOT NULL,
                cuisine TEXT NOT NULL,
                price_level INTEGER NOT NULL,
                address TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                image_url TEXT,
                phone_number TEXT,
                website TEXT,
                opening_hours TEXT[] NOT NULL,
                rating_total BIGINT NOT NULL CHECK (rating_total >= 0),
                review_count BIGINT NOT NULL CHECK (review_count >= 0),
                created_at BIGINT NOT NULL,
                -- Derived from the Domain's values with every change, for listing and search:
                rank_rating DOUBLE PRECISION NOT NULL,   -- minus the rating: ascending = best first
                listed BOOLEAN NOT NULL,                 -- Restaurant.isValid
                name_key TEXT COLLATE "C" NOT NULL,      -- lowercased, canonically decomposed name
                cuisine_key TEXT COLLATE "C" NOT NULL    -- the same of the cuisine
            );
            -- ListRestaurants / SearchRestaurants: rank order (rating desc, name, id).
            CREATE INDEX restaurants_by_rank ON restaurants (listed, rank_rating, name, id);
            -- ListRestaurants with a cuisine.
            CREATE INDEX restaurants_by_cuisine_rank ON restaurants (listed, cuisine_key, rank_rating, name, id);
            -- LoadFeed: newest first.
            CREATE INDEX restaurants_by_recency ON restaurants (listed, created_at, id);

            CREATE TABLE reviews (
                id TEXT COLLATE "C" PRIMARY KEY,
                restaurant_id TEXT COLLATE "C" NOT NULL REFERENCES restaurants (id),
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id),
                rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                text TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            -- GetReviews (newest first) and the recent-review count of the score.
            CREATE INDEX reviews_by_restaurant ON reviews (restaurant_id, created_at, id);
            CREATE INDEX reviews_by_user ON reviews (user_id);

            CREATE TABLE favorites (
                number BIGSERIAL PRIMARY KEY,            -- save order: breaks ties of saved_at
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id),
                restaurant_id TEXT COLLATE "C" NOT NULL REFERENCES restaurants (id),
                saved_at BIGINT NOT NULL,
                UNIQUE (user_id, restaurant_id)
            );
            -- GetFavoriteRestaurants (newest saved first) and the cap count.
            CREATE INDEX favorites_by_user ON favorites (user_id, saved_at);
            CREATE INDEX favorites_by_restaurant ON favorites (restaurant_id);

            CREATE TABLE menu_items (
                id TEXT COLLATE "C" PRIMARY KEY,
                restaurant_id TEXT COLLATE "C" NOT NULL REFERENCES restaurants (id),
                name TEXT COLLATE "C" NOT NULL,
                price_minor_units BIGINT NOT NULL,
                currency TEXT NOT NULL,
                stock BIGINT NOT NULL CHECK (stock >= 0)
            );
            -- GetMenu: by name, then id.
            CREATE INDEX menu_items_by_restaurant ON menu_items (restaurant_id, name, id);

            CREATE TABLE orders (
                id TEXT COLLATE "C" PRIMARY KEY,
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id),
                currency TEXT NOT NULL,
                discount_minor_units BIGINT NOT NULL,
                tax_minor_units BIGINT NOT NULL,
                delivery_address TEXT NOT NULL,
                created_at BIGINT NOT NULL
            );
            -- ListOrders: a user's orders, newest first.
            CREATE INDEX orders_by_user ON orders (user_id, created_at, id);

            CREATE TABLE order_lines (
                order_id TEXT COLLATE "C" NOT NULL REFERENCES orders (id),
                position INTEGER NOT NULL,
                item_id TEXT COLLATE "C" NOT NULL REFERENCES menu_items (id),
                quantity BIGINT NOT NULL CHECK (quantity > 0),
                unit_price_minor_units BIGINT NOT NULL,
                PRIMARY KEY (order_id, position)
            );
            CREATE INDEX order_lines_by_item ON order_lines (item_id);
            """),
        (MigrationName.idempotencyKeys, """
            -- Idempotency keys: each bound in the transaction of the write it made, with the
            -- request it was first used with and that write's result (see IdempotencyClaim).
            CREATE TABLE idempotency_keys (
                key TEXT COLLATE "C" PRIMARY KEY,
                request TEXT NOT NULL,
                result BYTEA NOT NULL,
                made_at BIGINT NOT NULL                  -- ms since the epoch: pruning by age
            );
            CREATE INDEX idempotency_keys_by_age ON idempotency_keys (made_at);
            """),
        (MigrationName.events, """
            -- The event log, a transactional outbox: each event is inserted in the transaction of
            -- the write it records, unnumbered; after commit the sequencer numbers them (seq) in
            -- insertion order (id), under event_sequence's row lock. A sequence value is taken at
            -- insertion, after the write's row locks: for one key, id order is commit order.
            -- Each index covers one phase only, so an insert and its numbering each write one
            -- index entry.
            CREATE TABLE events (
                id BIGSERIAL NOT NULL,
                seq BIGINT,
                type TEXT NOT NULL,
                at BIGINT NOT NULL,                      -- ms since the epoch: the write's time
                key TEXT NOT NULL,
                data TEXT NOT NULL,                      -- the event's data, JSON
                traceparent TEXT
            );
            -- The sequencer's work: the events not numbered yet, in insertion order.
            CREATE INDEX events_unnumbered ON events (id) WHERE seq IS NULL;
            -- The log: the numbered events by seq.
            CREATE UNIQUE INDEX events_by_seq ON events (seq) WHERE seq IS NOT NULL;
            -- The highest seq handed out (pruning never lowers it); its row lock serialises numbering.
            CREATE TABLE event_sequence (
                only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
                last_seq BIGINT NOT NULL
            );
            INSERT INTO event_sequence (only_row, last_seq) VALUES (true, 0);
            """),
        (MigrationName.orderStatus, """
            ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'cancelled'));
            ALTER TABLE orders ADD COLUMN cancelled_at BIGINT;      -- ms since the epoch; NULL while placed
            """),
        (MigrationName.unqueriedIndexes, """
            -- No query reads by these columns, and no parent row is deleted or re-keyed.
            DROP INDEX reviews_by_user;
            DROP INDEX favorites_by_restaurant;
            DROP INDEX order_lines_by_item;
            """),
    ]

    /// The statements of a migration's text, in order.
    static func statements(of sql: String) -> [String] {
        sql.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The table recording which migrations ran.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            name TEXT PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """

    /// Advisory-lock keys (any 64-bit numbers no other application on the database uses).
    enum Lock {
        /// Held (per transaction) while migrations are checked and applied.
        static let migrations: Int64 = 0x5356_4344_0001
        /// Held (per session) while the sample data set is seeded.
        static let seeding: Int64 = 0x5356_4344_0002
        /// Held (per session, on its listening connection) by the instance that numbers events.
        static let eventNumbering: Int64 = 0x5356_4344_0003
    }
}
