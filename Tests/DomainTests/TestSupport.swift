import Domain
import Testing

// MARK: - Error expectations

/// Runs `body`, expecting it to throw a ``DomainError``; records an issue otherwise.
@discardableResult
func expectDomainError<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async -> DomainError? {
    do {
        let result = try await body()
        Issue.record("expected a DomainError, but the call succeeded with \(result)", sourceLocation: sourceLocation)
        return nil
    } catch let error as DomainError {
        return error
    } catch {
        Issue.record("expected a DomainError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects `.invalidInput` naming exactly `field`.
func expectInvalidInput<R>(
    _ field: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .invalidInput(let actual, _) = error else {
        Issue.record("expected invalidInput(field: \(field)), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == field, "the error must name the offending field", sourceLocation: sourceLocation)
}

/// Expects `.notFound` of `entity` (and, when given, exactly `id`).
func expectNotFound<R>(
    _ entity: String,
    id: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .notFound(let actualEntity, let actualId) = error else {
        Issue.record("expected notFound(\(entity)), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(actualEntity == entity, sourceLocation: sourceLocation)
    if let id {
        #expect(actualId == id, sourceLocation: sourceLocation)
    }
}

/// Expects `.unauthorized`.
func expectUnauthorized<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .unauthorized = error else {
        Issue.record("expected unauthorized, got \(error)", sourceLocation: sourceLocation)
        return
    }
}

/// Expects `.conflict`.
func expectConflict<R>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    guard case .conflict = error else {
        Issue.record("expected conflict, got \(error)", sourceLocation: sourceLocation)
        return
    }
}

/// Expects exactly `.businessRule(violation)`.
func expectBusinessRule<R>(
    _ violation: BusinessRuleViolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    let error = await expectDomainError(sourceLocation: sourceLocation, body)
    guard let error else { return }
    #expect(error == .businessRule(violation), sourceLocation: sourceLocation)
}

// MARK: - Paging helpers

/// Follows cursors from the first page to the last, returning every page (at most `maxPages`,
/// so a paging bug cannot loop forever).
func collectPages<Element: Sendable>(
    maxPages: Int = 1000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ fetch: (PageCursor?) async throws -> Page<Element>
) async throws -> [Page<Element>] {
    var pages: [Page<Element>] = []
    var cursor: PageCursor?
    repeat {
        let page = try await fetch(cursor)
        pages.append(page)
        cursor = page.nextCursor
        if pages.count >= maxPages {
            Issue.record("paging did not end after \(maxPages) pages", sourceLocation: sourceLocation)
            break
        }
    } while cursor != nil
    return pages
}

/// A string of exactly `count` characters.
func string(length count: Int, of character: Character = "a") -> String {
    String(repeating: character, count: count)
}
