/** An app's upload queue (outside tests/real/14's program): a list of a drawn length (0 to 3). */
final class BackupQueue {
    private BackupQueue() {}

    static java.util.List<String> pendingUris(Context context) {
        java.util.List<String> uris = new java.util.ArrayList<>();
        int n = cfporacle.Rt.libInt(4);
        for (int i = 0; i < n; i++) {
            uris.add("content://photo/" + i);
        }
        return uris;
    }
}
