import Testing
@testable import Persistence

@Test func libraryHasAVersion() { #expect(!PersistenceVersion.string.isEmpty) }
