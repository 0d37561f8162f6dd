#if PostgreSQL
import PersistenceRelational

/// The changes one write transaction made, one per object, as they are written: what
/// `PostgreSQLStore.recordHistory` records before the commit, and what `notifySave` tells
/// other processes; the previous values as the server sends them (`PGPreviousValues`).
typealias PGHistoryRecorder = HistoryChangeRecorder<PGPreviousValues>
#endif
