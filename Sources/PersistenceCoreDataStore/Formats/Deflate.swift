import CZlib
import Foundation

/// Compresses bytes into a raw DEFLATE stream (RFC 1951, no header), the form of Core
/// Data's Z_MODELCACHE, with the system zlib; `Inflate` reads it back.
package enum Deflate {
    /// The raw DEFLATE stream of `data`, at zlib's default compression level.
    ///
    /// - Throws: `CoreDataFormatError` (format `.deflate`) for more than 2 GiB of bytes, or if
    ///   zlib fails, which it does only when out of memory.
    package static func compress(_ data: Data) throws -> Data {
        guard data.count <= Int(UInt32.max) / 2 else {
            throw CoreDataFormatError(
                .deflate, at: "", "\(data.count) bytes are more than zlib compresses at once")
        }
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw CoreDataFormatError(.deflate, at: "", "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](
            repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 16)
        let outputCount = output.count
        let (status, written): (Int32, Int) = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputCount)
                let status = deflate(&stream, Z_FINISH)
                return (status, outputCount - Int(stream.avail_out))
            }
        }
        guard status == Z_STREAM_END else {
            throw CoreDataFormatError(
                .deflate, at: "", "zlib could not compress \(data.count) bytes (error \(status))")
        }
        return Data(output[0..<written])
    }
}
