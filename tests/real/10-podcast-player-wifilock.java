// spec: wifilock
// expect: verified
// harness: android-activity
// why: the Wi-Fi lock chosen for the stream quality is acquired in onResume() and released
// in onPause(), so it is balanced whenever Android may kill the process; the lambda and the
// method reference only call framework objects.
package fm.example.podcasts.player;

import android.app.Activity;
import android.content.Context;
import android.media.MediaPlayer;
import android.net.wifi.WifiManager;
import android.os.Bundle;
import android.os.Handler;
import android.util.Log;
import android.widget.ImageButton;

public class EpisodePlayerActivity extends Activity {
    private static final String TAG = "EpisodePlayer";

    enum StreamQuality {
        LOW,
        STANDARD,
        LOSSLESS
    }

    private WifiManager.WifiLock wifiLock;
    private MediaPlayer mediaPlayer;
    private Handler handler;
    private ImageButton playPause;
    private StreamQuality quality = StreamQuality.STANDARD;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_episode_player);
        handler = new Handler();
        mediaPlayer = new MediaPlayer();
        playPause = (ImageButton) findViewById(R.id.play_pause);
        playPause.setOnClickListener(v -> Log.d(TAG, "toggle from " + v.getId()));

        String q = getIntent().getStringExtra("quality");
        if ("lossless".equals(q)) {
            quality = StreamQuality.LOSSLESS;
        } else if ("low".equals(q)) {
            quality = StreamQuality.LOW;
        }

        WifiManager wifi = (WifiManager) getApplicationContext().getSystemService(Context.WIFI_SERVICE);
        int lockMode;
        switch (quality) {
            case LOSSLESS:
                lockMode = WifiManager.WIFI_MODE_FULL_HIGH_PERF;
                break;
            case LOW:
                lockMode = WifiManager.WIFI_MODE_FULL;
                break;
            default:
                lockMode = WifiManager.WIFI_MODE_FULL_LOW_LATENCY;
                break;
        }
        wifiLock = wifi.createWifiLock(lockMode, "podcasts:stream");
    }

    @Override
    protected void onResume() {
        super.onResume();
        wifiLock.acquire();
        handler.post(mediaPlayer::start);
    }

    @Override
    protected void onPause() {
        mediaPlayer.pause();
        wifiLock.release();
        super.onPause();
    }

    @Override
    protected void onDestroy() {
        handler.removeCallbacksAndMessages(null);
        mediaPlayer.stop();
        mediaPlayer = null;
        super.onDestroy();
    }
}
