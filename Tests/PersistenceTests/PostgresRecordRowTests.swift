import Domain
import PostgresNIO
@testable import Persistence
import Testing

/// Rows are read into records by column name: a statement that selects the columns in its own
/// order reads the same record as one in the record's order (the fast path looks at the
/// record's order first), and a column the statement did not select is a mapping error.
@Suite(.postgres) struct PostgresRecordRowTests {
    private static let inRecordOrder =
        "SELECT 'm-1' AS id, 'r-1' AS restaurant_id, 'Soup' AS name, 450::bigint AS price_minor_units, 'EUR' AS currency, 7::bigint AS stock"
    private static let reversed =
        "SELECT 7::bigint AS stock, 'EUR' AS currency, 450::bigint AS price_minor_units, 'Soup' AS name, 'r-1' AS restaurant_id, 'm-1' AS id"
    private static let withoutStock =
        "SELECT 'm-1' AS id, 'r-1' AS restaurant_id, 'Soup' AS name, 450::bigint AS price_minor_units, 'EUR' AS currency"

    /// The record of the one row `sql` selects, as its fields' values.
    private func fields(_ sql: String, on store: PostgresStore) async throws -> [String]? {
        try await store.read { connection, logger in
            try await connection.row(PostgresQuery(unsafeSQL: sql), logger, MenuItemRecord.init)
        }.map { [$0.id, $0.restaurantId, $0.name, "\($0.priceMinorUnits)", $0.currency, "\($0.stock)"] }
    }

    @Test func columnsInAnyOrderReadTheSameRecord() async throws {
        let server = try #require(PostgresSuite.current)
        let store = try await PostgresSuite.openStore(url: try await server.createDatabase(), connections: 1)
        let expected = ["m-1", "r-1", "Soup", "450", "EUR", "7"]
        let inOrder = try await fields(Self.inRecordOrder, on: store)
        let reversed = try await fields(Self.reversed, on: store)
        await store.close()
        #expect(inOrder == expected)
        #expect(reversed == expected)
    }

    @Test func aColumnTheStatementDidNotSelectIsAMappingError() async throws {
        let server = try #require(PostgresSuite.current)
        let store = try await PostgresSuite.openStore(url: try await server.createDatabase(), connections: 1)
        var thrown: (any Error)?
        do { _ = try await fields(Self.withoutStock, on: store) } catch { thrown = error }
        await store.close()
        #expect(thrown as? StoreError == .unmappable(table: MenuItemRecord.databaseTableName, column: "stock", value: "(not selected)"), "\(String(describing: thrown))")
    }
}
