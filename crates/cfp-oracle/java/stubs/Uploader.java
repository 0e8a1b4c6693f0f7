/** An app's uploader (outside tests/real/14's program): arbitrary counts. */
final class Uploader {
    private Uploader() {}

    static int uploadBatch(java.util.List<String> uris) {
        return cfporacle.Rt.extInt();
    }
}
