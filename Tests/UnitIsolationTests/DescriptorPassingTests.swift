import CUnitIsolation
import Foundation
import XCTest

/// A UI beside the plug-in comes back from the unit's process as a descriptor passed over the
/// control channel (SCM_RIGHTS). The child is untrusted: exactly one descriptor is taken, and a
/// byte without one, or with more, is refused without keeping any.
final class DescriptorPassingTests: XCTestCase {
    func pair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(auhost_iso_socketpair(&fds), 0)
        return (fds[0], fds[1])
    }

    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    func testOnePassedDescriptorArrivesAndWorks() throws {
        let (host, child) = try pair()
        defer { close(host); close(child) }
        let (ui, uiPeer) = try pair()
        defer { close(uiPeer) }
        XCTAssertEqual(auhost_iso_send_fd(child, ui), 0)
        close(ui)
        let received = auhost_iso_receive_fd(host)
        XCTAssertGreaterThanOrEqual(received, 0, String(cString: strerror(errno)))
        defer { close(received) }
        XCTAssertEqual(write(uiPeer, "ready\n", 6), 6)
        var bytes = [UInt8](repeating: 0, count: 6)
        XCTAssertEqual(read(received, &bytes, 6), 6)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "ready\n")
        XCTAssertNotEqual(fcntl(received, F_GETFD) & FD_CLOEXEC, 0, "a passed descriptor must not leak into children the host starts")
    }

    func testAByteWithoutADescriptorIsRefused() throws {
        let (host, child) = try pair()
        defer { close(host); close(child) }
        XCTAssertEqual(write(child, "F", 1), 1)
        XCTAssertEqual(auhost_iso_receive_fd(host), -1)
        XCTAssertEqual(errno, EBADMSG)
    }

    func testTwoDescriptorsAreRefusedAndNeitherIsKept() throws {
        let (host, child) = try pair()
        defer { close(host); close(child) }
        let before = openDescriptors()
        // One byte carrying two descriptors, as a hostile child could send.
        var byte: UInt8 = 70
        var fds: [Int32] = [STDIN_FILENO, STDERR_FILENO]
        let space = MemoryLayout<cmsghdr>.stride + 2 * MemoryLayout<Int32>.size + 16
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: 8)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        header.pointee.cmsg_level = SOL_SOCKET
        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
        header.pointee.cmsg_len = MemoryLayout<cmsghdr>.stride + 2 * MemoryLayout<Int32>.size
        (control + MemoryLayout<cmsghdr>.stride).copyMemory(from: &fds, byteCount: 2 * MemoryLayout<Int32>.size)
        let sent = withUnsafeMutablePointer(to: &byte) { bytePointer in
            var io = iovec(iov_base: bytePointer, iov_len: 1)
            return withUnsafeMutablePointer(to: &io) { ioPointer in
                var message = msghdr(
                    msg_name: nil, msg_namelen: 0, msg_iov: ioPointer, msg_iovlen: 1, msg_control: control,
                    msg_controllen: Int(header.pointee.cmsg_len), msg_flags: 0)
                return sendmsg(child, &message, 0)
            }
        }
        XCTAssertEqual(sent, 1, String(cString: strerror(errno)))
        XCTAssertEqual(auhost_iso_receive_fd(host), -1)
        XCTAssertEqual(errno, EBADMSG)
        XCTAssertEqual(openDescriptors(), before, "a refused descriptor was kept open")
    }
}
