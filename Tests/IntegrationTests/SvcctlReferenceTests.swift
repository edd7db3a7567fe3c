import Foundation
import SvcdTestSupport
import Testing

/// Docs/SVCCTL.md, the svcctl reference, against the parser's own definitions: every subcommand
/// `svcctl --help` lists (so a new one is covered without touching this file) has a section, in
/// the root command's order; every `--help` is quoted verbatim under a heading naming it; every
/// option and argument a command's `--help` shows has a table row, with the default `--help`
/// prints, and no row names an option that no longer exists.
@Suite struct SvcctlReferenceTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let documentPath = "Docs/SVCCTL.md"
    private static let regenerate = """
        Regenerate the --help blocks with `python3 Scripts/svcctl-help-blocks.py .build/debug/svcctl` \
        (after `swift build --product svcctl`), then bring the command's option table in Docs/SVCCTL.md up to date by hand.
        """

    // MARK: - The tests

    @Test func everyCommandHasASectionInTheRootCommandsOrder() async throws {
        let commands = try await Self.subcommands()
        let reference = try Self.reference()
        let sections = reference.commandSections()
        for command in commands where !sections.contains(command) {
            Issue.record("""
                    \(Self.documentPath) has no section for `svcctl \(command)` (a heading "## `svcctl \(command)`"): add it, with its option table and a heading "### `svcctl \(command) --help`", \
                    then fill that heading's block with `python3 Scripts/svcctl-help-blocks.py .build/debug/svcctl`.
                    """)
        }
        let documented = sections.filter(commands.contains)
        #expect(
            documented == commands.filter(sections.contains),
            "\(Self.documentPath) orders the commands \(documented); `svcctl --help` lists them as \(commands)")
        for section in sections where !commands.contains(section) {
            Issue.record("\(Self.documentPath) has a section for `svcctl \(section)`, which `svcctl --help` does not list")
        }
    }

    @Test func everyHelpIsQuotedVerbatim() async throws {
        let reference = try Self.reference()
        var commands: [String?] = [nil]  // nil: the root command
        commands += try await Self.subcommands().map { Optional($0) }
        for command in commands {
            let label = command.map { "svcctl \($0) --help" } ?? "svcctl --help"
            let expected = try await Self.help(command.map { [$0, "--help"] } ?? ["--help"])
            guard let block = reference.block(under: "`\(label)`") else {
                Issue.record("""
                    \(Self.documentPath) has no fenced block under a heading containing `\(label)`. \(Self.regenerate) \
                    The block should read:
                    ```text
                    \(expected)
                    ```
                    """)
                continue
            }
            if block != expected {
                Issue.record("""
                    \(Self.documentPath): the block under `\(label)` differs from what `\(label)` prints \
                    (\(Self.firstDifference(block, expected))). \(Self.regenerate) Expected:
                    ```text
                    \(expected)
                    ```
                    """)
            }
        }
    }

    @Test func everyOptionHasATableRowWithItsDefault() async throws {
        let reference = try Self.reference()
        let global = reference.rows(inSectionTitled: "Global options")
        #expect(!global.isEmpty, "\(Self.documentPath) has a `## Global options` section with a table")
        var everyName: Set<String> = []
        for command in try await Self.subcommands() {
            let entries = Self.entries(ofHelp: try await Self.help([command, "--help"]))
            #expect(!entries.isEmpty, "`svcctl \(command) --help` shows options")
            let own = reference.rows(inSection: command)
            let names = Set(entries.map(\.name))
            everyName.formUnion(names)
            for entry in entries where entry.name != "--help" {
                // The command's own row, else the global options' row.
                guard let row = own[entry.name] ?? global[entry.name] else {
                    Issue.record("""
                        \(Self.documentPath): no table row for `\(entry.name)` of `svcctl \(command)`, neither in its section nor in \
                        Global options (`svcctl \(command) --help` shows it: \(entry.description)). \(Self.regenerate)
                        """)
                    continue
                }
                if let defaultValue = entry.defaultValue, !row.contains("`\(defaultValue)`") {
                    Issue.record("""
                        \(Self.documentPath): the row for `\(entry.name)` of `svcctl \(command)` does not give its default \
                        `\(defaultValue)` as `svcctl \(command) --help` prints it; the row: \(row). \(Self.regenerate)
                        """)
                }
                for value in entry.allowedValues where !row.contains("`\(value)`") {
                    Issue.record("\(Self.documentPath): the row for `\(entry.name)` of `svcctl \(command)` does not list the value `\(value)`; the row: \(row)")
                }
            }
            for name in own.keys where !names.contains(name) {
                Issue.record("\(Self.documentPath): the section of `svcctl \(command)` has a row for `\(name)`, which `svcctl \(command) --help` does not show")
            }
        }
        for name in global.keys where !everyName.contains(name) {
            Issue.record("\(Self.documentPath): Global options has a row for `\(name)`, which no command's --help shows")
        }
    }

    // MARK: - svcctl's help

    /// What `svcctl ARGUMENTS` prints on stdout, without its trailing newlines. Always at 80
    /// columns: swift-argument-parser wraps help at `COLUMNS`, else at the terminal's width, else
    /// (stdout a pipe, as here) at 80; runTool passes on this process's environment and takes no
    /// other, so COLUMNS is set through env(1), as Scripts/svcctl-help-blocks.py sets it.
    private static func help(_ arguments: [String]) async throws -> String {
        let executable = try ExecutableLocator.svcctl()
        let outcome = try await runTool("/usr/bin/env", ["COLUMNS=80", executable] + arguments, timeout: 60)
        try #require(outcome.status == 0, "svcctl \(arguments.joined(separator: " ")) exited \(String(describing: outcome.status)): \(outcome.stderr)")
        return trimmingTrailingNewlines(outcome.stdout)
    }

    /// The subcommands the SUBCOMMANDS section of `svcctl --help` lists, in order: an entry starts
    /// two spaces in (its abstract's continuation lines further in), the section ends at a blank line.
    private static func subcommands() async throws -> [String] {
        var names: [String] = []
        var inside = false
        for line in try await help(["--help"]).split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "SUBCOMMANDS:" {
                inside = true
            } else if inside {
                if line.allSatisfy(\.isWhitespace) { break }
                if line.hasPrefix("  "), !line.hasPrefix("   ") {
                    names.append(String(line.dropFirst(2).prefix { !$0.isWhitespace }))
                }
            }
        }
        try #require(!names.isEmpty, "`svcctl --help` lists no SUBCOMMANDS")
        return names
    }

    /// An option or argument as a command's `--help` shows it.
    struct HelpEntry: CustomStringConvertible {
        /// `--long-name`, or `<argument>`.
        let name: String
        /// Its help text, its lines joined.
        let text: String
        /// The default the parser appends, `(default: X)` or `(values: …; default: X)`.
        let defaultValue: String?
        /// The values the parser appends for an enumerated option, `(values: a, b…)`.
        let allowedValues: [String]
        var description: String { text }
    }

    /// The entries of the ARGUMENTS and OPTIONS sections of a command's help. An entry starts two
    /// spaces in (`  --name <value>   text` or `  <argument>   text`); its text goes on in lines
    /// further in. What the parser appends comes last, in parentheses with no full stop after them.
    static func entries(ofHelp help: String) -> [HelpEntry] {
        var raw: [(name: String, text: [String])] = []
        var inside = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "ARGUMENTS:" || line == "OPTIONS:" {
                inside = true
            } else if line.allSatisfy(\.isWhitespace) {
                inside = false
            } else if inside, line.hasPrefix("   "), !raw.isEmpty {
                raw[raw.count - 1].text.append(line.trimmingCharacters(in: .whitespaces))
            } else if inside, line.hasPrefix("  ") {
                let body = line.dropFirst(2)
                let head = body.range(of: "  ").map { body[..<$0.lowerBound] } ?? body
                let words = head.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
                let name = words.first(where: isOptionName) ?? words.first { $0.hasPrefix("<") } ?? words.first ?? ""
                let text = body[head.endIndex...].trimmingCharacters(in: .whitespaces)
                raw.append((name, text.isEmpty ? [] : [text]))
            }
        }
        return raw.map { entry in
            let text = entry.text.joined(separator: " ")
            var defaultValue: String?
            var allowedValues: [String] = []
            if text.hasSuffix(")"), let open = text.range(of: "(", options: .backwards) {
                for part in text[open.upperBound..<text.index(before: text.endIndex)].components(separatedBy: "; ") {
                    if part.hasPrefix("default: ") { defaultValue = String(part.dropFirst("default: ".count)) }
                    if part.hasPrefix("values: ") { allowedValues = part.dropFirst("values: ".count).components(separatedBy: ", ") }
                }
            }
            return HelpEntry(name: entry.name, text: text, defaultValue: defaultValue, allowedValues: allowedValues)
        }
    }

    // MARK: - The document

    /// Docs/SVCCTL.md as headings, fenced blocks and the lines outside them.
    struct Reference {
        let lines: [String]
        /// Line index and level (number of `#`) of each heading outside fenced blocks.
        let headings: [(index: Int, level: Int)]
        /// Line indices of each fenced block's opening and closing fence.
        let blocks: [(open: Int, close: Int)]

        init(_ text: String) {
            lines = text.components(separatedBy: "\n")
            var headings: [(index: Int, level: Int)] = []
            var blocks: [(open: Int, close: Int)] = []
            var open: Int?
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("```") {
                    if let start = open {
                        blocks.append((start, index))
                        open = nil
                    } else {
                        open = index
                    }
                } else if open == nil, line.hasPrefix("#") {
                    let level = line.prefix { $0 == "#" }.count
                    if line.dropFirst(level).first == " " { headings.append((index, level)) }
                }
            }
            self.headings = headings
            self.blocks = blocks
        }

        /// The text of the first fenced block after the first heading containing `needle`, before
        /// the next heading; trailing newlines removed.
        func block(under needle: String) -> String? {
            guard let position = headings.firstIndex(where: { lines[$0.index].contains(needle) }) else { return nil }
            let start = headings[position].index
            let end = position + 1 < headings.count ? headings[position + 1].index : lines.count
            guard let block = blocks.first(where: { $0.open > start && $0.open < end }) else { return nil }
            return SvcctlReferenceTests.trimmingTrailingNewlines(lines[(block.open + 1)..<block.close].joined(separator: "\n"))
        }

        /// The commands with a level-2 section titled `svcctl COMMAND` (in backquotes), in document order.
        func commandSections() -> [String] {
            headings.filter { $0.level == 2 }.compactMap { heading in
                let title = lines[heading.index].dropFirst(3).trimmingCharacters(in: .whitespaces)
                guard title.hasPrefix("`svcctl "), title.hasSuffix("`"), !title.hasSuffix(" --help`") else { return nil }
                let command = title.dropFirst("`svcctl ".count).dropLast()
                return command.isEmpty || command.contains(" ") ? nil : String(command)
            }
        }

        /// The table rows of the level-2 section of `command`, keyed by the option or argument
        /// their first cell names.
        func rows(inSection command: String) -> [String: String] {
            rows(inSectionWhere: { $0 == "`svcctl \(command)`" })
        }

        /// The table rows of the level-2 section titled `title`.
        func rows(inSectionTitled title: String) -> [String: String] {
            rows(inSectionWhere: { $0 == title })
        }

        /// Rows whose first cell starts with `--name` or `<argument>` (backquoted, maybe followed by
        /// a value name: `` `--timeout <timeout>` ``; `-h, --help` counts as `--help`), outside
        /// fenced blocks, in the first level-2 section whose title matches.
        private func rows(inSectionWhere matches: (String) -> Bool) -> [String: String] {
            guard let position = headings.firstIndex(where: { heading in
                heading.level == 2 && matches(lines[heading.index].dropFirst(3).trimmingCharacters(in: .whitespaces))
            }) else { return [:] }
            let start = headings[position].index
            let end = headings[(position + 1)...].first { $0.level <= 2 }?.index ?? lines.count
            var rows: [String: String] = [:]
            for index in start..<end where lines[index].hasPrefix("|") && !blocks.contains(where: { $0.open < index && index < $0.close }) {
                let cells = lines[index].split(separator: "|", omittingEmptySubsequences: false)
                guard cells.count > 2 else { continue }
                let words = cells[1].replacingOccurrences(of: "`", with: "").split(separator: " ")
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
                // Not the header's `option` nor the separator's `---`.
                guard let name = words.first(where: SvcctlReferenceTests.isOptionName) ?? words.first(where: { $0.hasPrefix("<") }) else { continue }
                rows[name] = lines[index]
            }
            return rows
        }
    }

    private static func reference() throws -> Reference {
        let url = root.appendingPathComponent(documentPath)
        return Reference(try String(contentsOf: url, encoding: .utf8))
    }

    // MARK: - Text

    /// `--name`: two dashes and a letter.
    static func isOptionName(_ word: String) -> Bool {
        word.hasPrefix("--") && word.dropFirst(2).first?.isLetter == true
    }

    static func trimmingTrailingNewlines(_ text: String) -> String {
        var text = Substring(text)
        while text.last == "\n" { text.removeLast() }
        return String(text)
    }

    /// Where two texts first differ, by line, for the failure message.
    private static func firstDifference(_ documented: String, _ printed: String) -> String {
        let left = documented.components(separatedBy: "\n")
        let right = printed.components(separatedBy: "\n")
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : "(nothing)"
            let b = index < right.count ? right[index] : "(nothing)"
            if a != b { return "line \(index + 1) of the block: documented \"\(a)\", printed \"\(b)\"" }
        }
        return "equal"
    }
}
