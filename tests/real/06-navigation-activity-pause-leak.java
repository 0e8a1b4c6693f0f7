// spec: wakelock
// expect: violation
// harness: android-activity
// why: in HIGH_ACCURACY mode onResume() acquires the wake lock, but onPause() releases it
// only when the activity is finishing; Android may kill the paused process, so an
// acquire() is left without its release().
package com.example.navigation;

import android.app.Activity;
import android.content.Context;
import android.location.Location;
import android.location.LocationListener;
import android.location.LocationManager;
import android.os.Bundle;
import android.os.PowerManager;
import android.util.Log;

public class NavigationActivity extends Activity {
    private static final String TAG = NavigationActivity.class.getSimpleName();

    enum TrackingMode {
        HIGH_ACCURACY,
        BALANCED,
        PASSIVE
    }

    private PowerManager.WakeLock wakeLock;
    private LocationManager locationManager;
    private GpsListener gpsListener;
    private TrackingMode mode = TrackingMode.BALANCED;
    private boolean trackingActive;
    private Location lastFix;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_navigation);
        PowerManager pm = (PowerManager) getSystemService(Context.POWER_SERVICE);
        wakeLock = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "navigation:gps");
        locationManager = (LocationManager) getSystemService(Context.LOCATION_SERVICE);
        gpsListener = new GpsListener();
        if (getIntent().getBooleanExtra("turn_by_turn", false)) {
            mode = TrackingMode.HIGH_ACCURACY;
        }
    }

    @Override
    protected void onResume() {
        super.onResume();
        switch (mode) {
            case HIGH_ACCURACY:
                wakeLock.acquire();
                trackingActive = true;
                locationManager.requestLocationUpdates(LocationManager.GPS_PROVIDER, 1000L, 0f, gpsListener);
                break;
            case BALANCED:
                locationManager.requestLocationUpdates(LocationManager.NETWORK_PROVIDER, 5000L, 10f, gpsListener);
                break;
            case PASSIVE:
            default:
                Log.d(TAG, "passive tracking, no updates requested");
                break;
        }
    }

    @Override
    protected void onPause() {
        locationManager.removeUpdates(gpsListener);
        // Keep tracking while the user glances at another app; only stop when leaving.
        if (isFinishing() && trackingActive) {
            wakeLock.release();
            trackingActive = false;
        }
        super.onPause();
    }

    @Override
    protected void onDestroy() {
        if (trackingActive) {
            wakeLock.release();
            trackingActive = false;
        }
        super.onDestroy();
    }

    private void updateRoute(Location fix) {
        Log.v(TAG, "fix " + fix.getLatitude() + "," + fix.getLongitude());
    }

    /** Receives GPS fixes for the enclosing activity. */
    private class GpsListener implements LocationListener {
        @Override
        public void onLocationChanged(Location location) {
            lastFix = location;
            NavigationActivity.this.updateRoute(location);
        }

        @Override
        public void onProviderDisabled(String provider) {
            Log.w(TAG, provider + " disabled, mode " + NavigationActivity.this.mode);
        }
    }
}
