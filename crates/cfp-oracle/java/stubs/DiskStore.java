/** An app's disk cache (outside tests/real/15's program): lookups have arbitrary results. */
final class DiskStore {
    private DiskStore() {}

    static boolean exists(String key) {
        return cfporacle.Rt.extBool();
    }

    static void write(String key, byte[] data) {
    }

    static void evictOldest() {
    }
}
