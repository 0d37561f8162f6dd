import BookCatalog
import Persistence
import Foundation

/// `books-bench --app-profile insert|fetch|filter|update|delete grdb|persistence STORE [N]`:
/// one run of one side of one app-shaped workload (issue #47) in a process of its own, for a
/// profiler (`perf record`, `valgrind --tool=callgrind`) to see that side alone. `insert`
/// makes STORE anew with N books (default 100,000); `fetch` and `filter` read it; `update`
/// and `delete` change every tenth of its N books, as the harness does, in a copy of it
/// (`STORE-work`, removed afterwards). Prints the seconds.
enum AppProfileRun {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 3, ["insert", "fetch", "filter", "update", "delete"].contains(arguments[0]),
            ["grdb", "persistence"].contains(arguments[1])
        else {
            FileHandle.standardError.write(
                Data("usage: books-bench --app-profile insert|fetch|filter|update|delete grdb|persistence STORE [N]\n".utf8))
            return 64
        }
        let (workload, side, store) = (arguments[0], arguments[1], arguments[2])
        let count = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000
        do {
            let seconds: Double
            switch (workload, side) {
            case ("insert", _):
                let data = AppBookData(BookData(count: count))
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
                seconds = side == "grdb"
                    ? try AppGRDBSide.insert(data, path: store) : try AppPersistenceSide.insert(data, path: store)
            case ("update", _), ("delete", _):
                seconds = try changeEveryTenth(workload, side: side, store: store, count: count)
            case ("fetch", "grdb"): seconds = try AppGRDBSide.fetchAll(path: store).seconds
            case ("fetch", _): seconds = try AppPersistenceSide.fetchAll(path: store).seconds
            case (_, "grdb"): seconds = try AppGRDBSide.fetchCheaper(than: Bench.filterPrice, path: store).seconds
            default: seconds = try AppPersistenceSide.fetchCheaper(than: Bench.filterPrice, path: store).seconds
            }
            print(String(format: "%@ %@: %.1f ms", workload, side, seconds * 1000))
            return 0
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }

    /// The harness's update or delete of every tenth book (`Bench.appWrites`), on a copy of
    /// `store` made untimed.
    private static func changeEveryTenth(_ workload: String, side: String, store: String, count: Int) throws -> Double {
        let data = AppBookData(BookData(count: count))
        let chosen = stride(from: 0, to: data.books.count, by: 10).map { data.books[$0] }
        let work = store + "-work"
        func remove() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: work + suffix) }
        }
        remove()
        defer { remove() }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.copyItem(atPath: store + suffix, toPath: work + suffix)
        }
        if workload == "delete" {
            let titles = Set(chosen.map(\.title))
            return side == "grdb"
                ? try AppGRDBSide.delete(path: work, titles: titles) : try AppPersistenceSide.delete(path: work, titles: titles)
        }
        var changes: [String: AppChange] = [:]
        for book in chosen {
            let title = book.title + " (revised)"
            changes[book.title] = AppChange(title: title, canonicalTitle: CanonicalText.fold(title), price: book.price + 1)
        }
        return side == "grdb"
            ? try AppGRDBSide.update(path: work, changes: changes) : try AppPersistenceSide.update(path: work, changes: changes)
    }
}
