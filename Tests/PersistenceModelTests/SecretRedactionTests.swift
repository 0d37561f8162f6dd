import Foundation
import PersistenceModel
import Testing

/// `SecretRedaction` hides the password of every form of store location a message can echo,
/// and leaves everything else as it was.
@Suite struct SecretRedactionTests {
    @Test(arguments: [
        ("postgresql://user:secret@host/db", "postgresql://user:***@host/db"),
        ("postgres://user:secret@host:5432/db?sslmode=require", "postgres://user:***@host:5432/db?sslmode=require"),
        ("error: There is no store at postgresql://u:pa:ss@h/db.", "error: There is no store at postgresql://u:***@h/db."),
        ("'postgresql://u:p%40ss@h/db' and postgresql://v:two@k/e", "'postgresql://u:***@h/db' and postgresql://v:***@k/e"),
        ("postgresql://user@host/db?password=secret&sslmode=require", "postgresql://user@host/db?password=***&sslmode=require"),
        ("postgresql:///db?host=/run/postgresql&PASSWORD=secret", "postgresql:///db?host=/run/postgresql&PASSWORD=***"),
        ("host=h user=u password=secret dbname=d", "host=h user=u password=*** dbname=d"),
        ("host=h password = 'a b\\' c' dbname=d", "host=h password = *** dbname=d"),
        ("sslpassword=key1 password=key2", "sslpassword=*** password=***"),
        ("/tmp/postgresql://u:secret@h/x: no such file", "/tmp/postgresql://u:***@h/x: no such file"),
    ])
    func hidesPasswords(text: String, expected: String) {
        #expect(SecretRedaction.redacting(text) == expected)
        #expect(SecretRedaction.holdsSecret(text))
    }

    @Test(arguments: [
        "postgresql://user@host/db", "/tmp/Books.sqlite", "mail me at a@b.c", "the password is required",
        "Ünïcödé ✓ postgresql://h/d", "",
    ])
    func leavesOtherTextAlone(text: String) {
        #expect(SecretRedaction.redacting(text) == text)
        #expect(!SecretRedaction.holdsSecret(text))
    }
}
