import GRDB

/// The database schema, as migrations. Every query the repositories make has an index; the
/// comments name the query each one serves.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(MigrationName.base) { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    email TEXT NOT NULL,
                    -- EmailAddress.uniquenessKey: uniqueness ignoring case, enforced by SQLite.
                    email_key TEXT NOT NULL UNIQUE,
                    joined_at INTEGER NOT NULL,
                    is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
                    subscription_active_until INTEGER,
                    -- Incremented by every update: lets a process's in-memory copy of a user
                    -- move only forward when updates finish out of order.
                    version INTEGER NOT NULL DEFAULT 0
                );

                CREATE TABLE restaurants (
                    -- An explicit integer key: the search index refers to rows by it, and VACUUM
                    -- keeps it (it may renumber an implicit rowid).
                    number INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    cuisine TEXT NOT NULL,
                    price_level INTEGER NOT NULL,
                    address TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    image_url TEXT,
                    phone_number TEXT,
                    website TEXT,
                    opening_hours TEXT NOT NULL,          -- JSON array of strings
                    rating_total INTEGER NOT NULL CHECK (rating_total >= 0),
                    review_count INTEGER NOT NULL CHECK (review_count >= 0),
                    created_at INTEGER NOT NULL,
                    -- Derived columns for listing and search, written with every change:
                    rank_rating REAL NOT NULL,            -- minus the rating: ascending = best first
                    listed INTEGER NOT NULL CHECK (listed IN (0, 1)),  -- Restaurant.isValid
                    name_key TEXT NOT NULL,               -- lowercased name
                    cuisine_key TEXT NOT NULL             -- lowercased cuisine
                );
                -- ListRestaurants / SearchRestaurants: rank order (rating desc, name, id).
                CREATE INDEX restaurants_by_rank ON restaurants(listed, rank_rating, name, id);
                -- ListRestaurants with a cuisine.
                CREATE INDEX restaurants_by_cuisine_rank ON restaurants(listed, cuisine_key, rank_rating, name, id);
                -- LoadFeed: newest first.
                CREATE INDEX restaurants_by_recency ON restaurants(listed, created_at, id);
                -- SearchRestaurants: substring of name or cuisine, case-insensitive (trigrams).
                CREATE VIRTUAL TABLE restaurant_search USING fts5(
                    name_key, cuisine_key, content = 'restaurants', content_rowid = 'number', tokenize = 'trigram case_sensitive 1'
                );

                CREATE TABLE reviews (
                    id TEXT PRIMARY KEY NOT NULL,
                    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
                    user_id TEXT NOT NULL REFERENCES users(id),
                    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
                    text TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                -- GetReviews (newest first) and the recent-review count of the score.
                CREATE INDEX reviews_by_restaurant ON reviews(restaurant_id, created_at, id);
                CREATE INDEX reviews_by_user ON reviews(user_id);

                CREATE TABLE favorites (
                    number INTEGER PRIMARY KEY,           -- save order: breaks ties of saved_at
                    user_id TEXT NOT NULL REFERENCES users(id),
                    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
                    saved_at INTEGER NOT NULL,
                    UNIQUE (user_id, restaurant_id)
                );
                -- GetFavoriteRestaurants (newest saved first; number breaks ties) and the cap count.
                CREATE INDEX favorites_by_user ON favorites(user_id, saved_at);
                CREATE INDEX favorites_by_restaurant ON favorites(restaurant_id);

                CREATE TABLE menu_items (
                    id TEXT PRIMARY KEY NOT NULL,
                    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
                    name TEXT NOT NULL,
                    price_minor_units INTEGER NOT NULL,
                    currency TEXT NOT NULL,
                    stock INTEGER NOT NULL CHECK (stock >= 0)
                );
                -- GetMenu: by name, then id.
                CREATE INDEX menu_items_by_restaurant ON menu_items(restaurant_id, name, id);

                CREATE TABLE orders (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    currency TEXT NOT NULL,
                    discount_minor_units INTEGER NOT NULL,
                    tax_minor_units INTEGER NOT NULL,
                    delivery_address TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                -- ListOrders: a user's orders, newest first.
                CREATE INDEX orders_by_user ON orders(user_id, created_at, id);

                CREATE TABLE order_lines (
                    order_id TEXT NOT NULL REFERENCES orders(id),
                    position INTEGER NOT NULL,
                    item_id TEXT NOT NULL REFERENCES menu_items(id),
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    unit_price_minor_units INTEGER NOT NULL,
                    PRIMARY KEY (order_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX order_lines_by_item ON order_lines(item_id);
                """)
        }
        migrator.registerMigration(MigrationName.idempotencyKeys) { db in
            try db.execute(sql: """
                -- Idempotency keys: each bound in the transaction of the write it made, with the
                -- request it was first used with and that write's result (see IdempotencyClaim).
                CREATE TABLE idempotency_keys (
                    key TEXT PRIMARY KEY NOT NULL,
                    request TEXT NOT NULL,
                    result BLOB NOT NULL,
                    made_at INTEGER NOT NULL               -- ms since the epoch: pruning by age
                );
                CREATE INDEX idempotency_keys_by_age ON idempotency_keys(made_at);
                """)
        }
        migrator.registerMigration(MigrationName.events) { db in
            try db.execute(sql: """
                -- The event log, a transactional outbox: each event is inserted in the transaction
                -- of the write it records. The one writer numbers them (seq, the rowid: the
                -- highest plus one) in commit order. Pruning never removes the newest event, so
                -- a seq is never handed out twice (AUTOINCREMENT would ensure that too, at the
                -- cost of a second table written with every event).
                CREATE TABLE events (
                    seq INTEGER PRIMARY KEY,
                    type TEXT NOT NULL,
                    at INTEGER NOT NULL,                   -- ms since the epoch: the write's time
                    key TEXT NOT NULL,
                    data BLOB NOT NULL,                    -- the event's data, JSON
                    traceparent TEXT
                );
                """)
        }
        migrator.registerMigration(MigrationName.orderStatus) { db in
            try db.execute(sql: """
                ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'cancelled'));
                ALTER TABLE orders ADD COLUMN cancelled_at INTEGER;    -- ms since the epoch; NULL while placed
                """)
        }
        migrator.registerMigration(MigrationName.unqueriedIndexes) { db in
            // No query reads by these columns, and no parent row is deleted or re-keyed (which
            // the foreign keys would check through them). favorites_by_restaurant alone, whose
            // insertions land in a different page for every restaurant, took SaveFavorite's
            // commit thread from 29–35 to 39–51 µs per save as the table grew (storebench writes).
            try db.execute(sql: """
                DROP INDEX reviews_by_user;
                DROP INDEX favorites_by_restaurant;
                DROP INDEX order_lines_by_item;
                """)
        }
        return migrator
    }
}
