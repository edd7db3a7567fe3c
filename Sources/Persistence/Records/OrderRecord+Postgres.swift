import Domain
import PostgresNIO

extension OrderRecord {
    /// The order of a PostgreSQL row of ``columns`` (in that order) with its lines, rows of
    /// ``lineColumns`` in position order.
    static func order(from row: PostgresRow, lines: [PostgresRow]) throws -> Order {
        let (id, userId, code, discount, tax, address, createdAt) = try row.decode((String, String, String, Int, Int, String, Int64).self)
        return Order(
            id: OrderID(id), userId: UserID(userId),
            lines: try lines.map { line in
                let (_, _, itemId, quantity, unitPrice) = try line.decode((String, Int, String, Int, Int).self)
                return Order.Line(itemId: MenuItemID(itemId), quantity: quantity, unitPriceCents: unitPrice)
            },
            currency: try MenuItemRecord.currency(code, table: "orders"), discountCents: discount, taxCents: tax,
            deliveryAddress: address, createdAt: Timestamp(millisecondsSinceEpoch: createdAt)
        )
    }
}
