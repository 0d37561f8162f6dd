import CZlib
import Foundation

/// Decompresses a raw DEFLATE stream (RFC 1951, no zlib or gzip header), as Core Data
/// stores its compiled model in Z_MODELCACHE, with the system zlib.
///
/// The output is limited: a stream that would expand beyond `maximumOutputSize` bytes (a
/// "DEFLATE bomb": DEFLATE reaches about 1,000 to 1 on repeated bytes) is refused before it
/// is written out, and so is a truncated stream or one with invalid codes.
package enum Inflate {
    /// The default limit on the decompressed size: 64 MiB, far above any compiled model.
    package static let defaultMaximumOutputSize = 64 << 20

    /// The bytes a raw DEFLATE stream decompresses to.
    ///
    /// - Parameters:
    ///   - data: the compressed stream; bytes after its end are ignored.
    ///   - maximumOutputSize: the most bytes the stream may expand to.
    /// - Throws: `CoreDataFormatError` (format `.deflate`) when the stream is invalid,
    ///   truncated, expands beyond `maximumOutputSize`, or is larger than 4 GiB.
    package static func decompress(_ data: Data, maximumOutputSize: Int = defaultMaximumOutputSize)
        throws -> Data
    {
        guard data.count <= Int(UInt32.max) else {
            throw CoreDataFormatError(
                .deflate, at: "", "\(data.count) bytes are more than zlib reads at once")
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw CoreDataFormatError(.deflate, at: "", "zlib could not start decompressing")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var output: [UInt8] = []
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkSize)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, chunkSize - Int(stream.avail_out))
                }
                if produced > 0 {
                    guard output.count + produced <= maximumOutputSize else {
                        return Z_MEM_ERROR + 1000
                    }
                    output.append(contentsOf: chunk[0..<produced])
                }
                switch result {
                case Z_OK: continue
                case Z_BUF_ERROR where produced == 0: return Z_BUF_ERROR
                case Z_BUF_ERROR: continue
                default: return result
                }
            }
        }
        let position = "byte \(Int(stream.total_in)) of \(data.count)"
        switch status {
        case Z_STREAM_END:
            return Data(output)
        case Z_MEM_ERROR + 1000:
            throw CoreDataFormatError(
                .deflate, at: position,
                "the stream expands beyond \(maximumOutputSize) bytes, the limit")
        case Z_BUF_ERROR:
            throw CoreDataFormatError(.deflate, at: position, "the stream is truncated")
        case Z_NEED_DICT:
            throw CoreDataFormatError(
                .deflate, at: position, "the stream needs a preset dictionary")
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw CoreDataFormatError(.deflate, at: position, message)
        }
    }
}
