// Docs/Architecture.md stays true: its table of modules lists exactly the library and executable
// targets of Package.swift (examples and test support aside), each with exactly the direct
// dependencies Package.swift declares; every declared dependency is imported by the module's
// sources (an arrow nobody uses is not an arrow); the diagram names every module; the executable
// reads no clock (it parses, calls and prints: measuring is SegueTools').
import Foundation
import Testing

@Suite("Architecture document")
struct ArchitectureTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `target name → direct dependencies` of Package.swift's `.target` and `.executableTarget`
    /// entries (a `.product(name: X, …)` counts as X).
    private func declared() throws -> [String: Set<String>] {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        for match in manifest.matches(of: /\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"/) {
            let name = String(match.1)
            // The entry runs to the next target (or the end): its dependencies list, if any.
            let rest = manifest[match.range.upperBound...]
            let end = rest.firstMatch(of: /\.(?:target|executableTarget|testTarget|systemLibrary)\(/)?.range.lowerBound ?? rest.endIndex
            let entry = rest[..<end]
            var dependencies: Set<String> = []
            if let list = entry.firstMatch(of: /dependencies:\s*\[([^\]]*)\]/) {
                for d in list.1.matches(of: /(?:\.product\(name:\s*)?"([^"]+)"/) where !String(d.0).contains("package:") {
                    dependencies.insert(String(d.1))
                }
                for d in list.1.matches(of: /\.product\(name:\s*"([^"]+)"/) { dependencies.insert(String(d.1)) }
                // A product's package name is not a dependency of its own.
                for p in list.1.matches(of: /package:\s*"([^"]+)"/) { dependencies.remove(String(p.1)) }
            }
            targets[name] = dependencies
        }
        return targets
    }

    /// `module → dependencies` of the document's table (backticked names in the last column).
    private func documented() throws -> (table: [String: Set<String>], text: String) {
        let text = try String(contentsOfFile: Self.root + "/Docs/Architecture.md", encoding: .utf8)
        var table: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let name = cells[1].firstMatch(of: /^`([A-Za-z0-9]+)`$/)?.1 else { continue }
            table[String(name)] = Set(cells[cells.count - 2].matches(of: /`([A-Za-z0-9]+)`/).map { String($0.1) })
        }
        return (table, text)
    }

    @Test("the table lists every module of Package.swift with exactly its declared dependencies; the diagram names each")
    func tableMatchesManifest() throws {
        let manifest = try declared().filter { !["AnimatedTriangle", "SegueTestSupport"].contains($0.key) }
        let (table, text) = try documented()
        #expect(manifest.count >= 15)
        #expect(
            Set(table.keys) == Set(manifest.keys),
            "only in the document: \(Set(table.keys).subtracting(manifest.keys).sorted()); only in Package.swift: \(Set(manifest.keys).subtracting(table.keys).sorted())"
        )
        for (module, dependencies) in manifest {
            #expect(
                table[module] == dependencies,
                "\(module): document \(table[module]?.sorted() ?? []), Package.swift \(dependencies.sorted())")
        }
        let diagram = text.components(separatedBy: "```")[1]
        for module in manifest.keys { #expect(diagram.contains(module), "the diagram leaves out \(module)") }
    }

    @Test("every declared dependency of a module is imported by its sources")
    func dependenciesAreImported() throws {
        for (module, dependencies) in try declared() where module != "SegueTestSupport" {
            let directory = Self.root + (module == "AnimatedTriangle" ? "/Examples/AnimatedTriangle" : "/Sources/\(module)")
            var imported: Set<String> = []
            for file in FileManager.default.subpaths(atPath: directory) ?? [] where file.hasSuffix(".swift") {
                let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                for match in source.matches(of: /(?m)^(?:@_exported |@testable )?import\s+([A-Za-z0-9_]+)/) {
                    imported.insert(String(match.1))
                }
            }
            #expect(!imported.isEmpty, "\(module): no sources read in \(directory)")
            let unused = dependencies.subtracting(imported)
            #expect(unused.isEmpty, "\(module) declares \(unused.sorted()) but never imports it")
        }
    }

    @Test("the modules libsegue links import no Foundation; the others at most FoundationEssentials (no ICU: issue 29)")
    func noFoundation() throws {
        // SegueC and what it depends on, from Package.swift.
        let manifest = try declared()
        var linked: Set<String> = [], pending = ["SegueC"]
        while let module = pending.popLast() {
            guard let dependencies = manifest[module] else { continue }  // a system library
            if linked.insert(module).inserted { pending += dependencies }
        }
        #expect(linked.contains("SegueSystem") && linked.contains("SegueRender"), "\(linked.sorted())")
        for module in manifest.keys where module != "SegueTestSupport" && module != "AnimatedTriangle" {
            let directory = Self.root + "/Sources/\(module)"
            for file in FileManager.default.subpaths(atPath: directory) ?? [] where file.hasSuffix(".swift") {
                let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                for match in source.matches(of: /(?m)^(?:@_exported |@preconcurrency )?import\s+(Foundation[A-Za-z]*)\s*$/) {
                    let name = String(match.1)
                    if linked.contains(module) {
                        #expect(Bool(false), "\(module)/\(file) imports \(name): libsegue links no Foundation")
                    } else {
                        #expect(name == "FoundationEssentials", "\(module)/\(file) imports \(name), which brings ICU's data")
                    }
                }
            }
        }
    }

    @Test(
        "the executable measures nothing: no clock in Sources/segue but the live windows' frame clock and the progress line's rate (benchmarks time themselves in SegueTools)"
    )
    func executableMeasuresNothing() throws {
        let directory = Self.root + "/Sources/segue"
        var files = 0
        for file in FileManager.default.subpaths(atPath: directory) ?? []
        where file.hasSuffix(".swift") && !["LiveWindowOptions.swift", "ProgressLine.swift"].contains(file) {
            files += 1
            let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for match in source.matches(of: /DispatchTime|ContinuousClock|SuspendingClock|clock_gettime|Stopwatch|\bDate\(\)/) {
                #expect(Bool(false), "segue/\(file) reads a clock (\(match.0)): measuring belongs in SegueTools")
            }
        }
        #expect(files > 20)
    }
}
