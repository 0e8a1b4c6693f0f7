/** An app's HTTP client (outside tests/real/15's program): a response or none. */
final class HttpClient {
    private HttpClient() {}

    static byte[] get(String url) {
        return cfporacle.Rt.extRef() ? new byte[1] : null;
    }
}
