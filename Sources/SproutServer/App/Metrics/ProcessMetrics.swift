import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's memory, CPU time and open files, in the names Prometheus's own client libraries use
/// (`process_*`), read from /proc at each scrape. (swift-system-metrics is not among the packages this project can
/// build with; this is the part of it Sprout needs.) On a system without /proc the series are left out.
struct ProcessMetrics {
    var residentBytes: Int?
    var virtualBytes: Int?
    var cpuSeconds: Double?
    var startTimeSeconds: Double?
    var openFiles: Int?
    var maximumFiles: Int?

    static func read() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        #if os(Linux)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            // After "pid (comm)": field 3 is the state, so fields[n - 3] is field n of proc(5).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 21, ticks > 0 {
                metrics.cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
                metrics.virtualBytes = Int(fields[20])
                metrics.residentBytes = Int(fields[21]).map { $0 * pageSize }
                if let started = Double(fields[19]), let boot = bootTime() { metrics.startTimeSeconds = boot + started / ticks }
            }
        }
        metrics.openFiles = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { metrics.maximumFiles = Int(limit.rlim_cur) }
        #endif
        return metrics
    }

    /// Seconds since the epoch at which the machine booted (`btime` in /proc/stat).
    private static func bootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Prometheus's text format, one `# TYPE` line and one sample a series.
    func exposition() -> String {
        var text = ""
        func add(_ name: String, _ type: String, _ value: String?) {
            guard let value else { return }
            text += "# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        add("process_resident_memory_bytes", "gauge", residentBytes.map(String.init))
        add("process_virtual_memory_bytes", "gauge", virtualBytes.map(String.init))
        add("process_cpu_seconds_total", "counter", cpuSeconds.map { String($0) })
        add("process_start_time_seconds", "gauge", startTimeSeconds.map { String($0) })
        add("process_open_fds", "gauge", openFiles.map(String.init))
        add("process_max_fds", "gauge", maximumFiles.map(String.init))
        return text
    }
}
