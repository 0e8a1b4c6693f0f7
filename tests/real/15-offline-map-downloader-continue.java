// spec: wifilock
// expect: violation
// entry: OfflineMapDownloader.downloadRegion
// why: the reference-counted Wi-Fi lock is acquired for every tile, but the `continue` for
// tiles already in the disk cache skips the matching release(), so the count never gets
// back to zero.
package com.example.maps.offline;

import android.content.Context;
import android.net.wifi.WifiManager;
import android.util.Log;
import java.util.List;

public class OfflineMapDownloader {
    private static final String TAG = OfflineMapDownloader.class.getSimpleName();

    public enum TileFormat {
        VECTOR,
        RASTER,
        TERRAIN
    }

    public interface ProgressListener {
        void onTileDone(int done, int total);

        void onFinished(int fetched);
    }

    private final Context context;
    private final TileCache cache;
    private final TileFormat format;
    private ProgressListener listener;

    public OfflineMapDownloader(Context context, TileCache cache, TileFormat format) {
        this.context = context;
        this.cache = cache;
        this.format = format;
        this.listener = new ProgressListener() {
            @Override
            public void onTileDone(int done, int total) {
                Log.v(TAG, done + "/" + total);
            }

            @Override
            public void onFinished(int fetched) {
                cache.trimToBudget();
            }
        };
    }

    public int downloadRegion(List<String> tileKeys) {
        WifiManager wm = (WifiManager) context.getApplicationContext().getSystemService(Context.WIFI_SERVICE);
        WifiManager.WifiLock lock = wm.createWifiLock(WifiManager.WIFI_MODE_FULL_HIGH_PERF, "maps:offline");
        int fetched = 0;
        int done = 0;
        for (String key : tileKeys) {
            lock.acquire();
            done++;
            if (cache.contains(key)) {
                continue;
            }
            String url = tileUrl(key, format);
            byte[] data = HttpClient.get(url);
            if (data != null) {
                cache.put(key, data);
                fetched++;
            }
            lock.release();
            listener.onTileDone(done, tileKeys.size());
        }
        listener.onFinished(fetched);
        return fetched;
    }

    static String tileUrl(String key, TileFormat format) {
        switch (format) {
            case VECTOR:
                return "https://tiles.example.com/v/" + key + ".pbf";
            case TERRAIN:
                return "https://tiles.example.com/t/" + key + ".png";
            default:
                return "https://tiles.example.com/r/" + key + ".jpg";
        }
    }
}

class TileCache {
    private long bytes;

    boolean contains(String key) {
        return DiskStore.exists(key);
    }

    void put(String key, byte[] data) {
        DiskStore.write(key, data);
        bytes += data.length;
    }

    void trimToBudget() {
        DiskStore.evictOldest();
    }
}
