import LoadEngine

extension OrderFixtures {
    /// ``make(register:addItem:count:tag:)`` through `instance`, on a dedicated thread.
    static func make(through instance: SvcdInstance, count: Int) async throws -> OrderFixtures {
        let register = try instance.address(.registerUser)
        let addItem = try instance.address(.addMenuItem)
        return try await onThread { try OrderFixtures.make(register: register, addItem: addItem, count: count, tag: "bench") }
    }
}
