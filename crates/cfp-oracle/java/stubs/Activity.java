/** `android.app.Activity`: lifecycle callbacks that do nothing. */
class Activity extends Context {
    protected void onCreate(Bundle savedInstanceState) {
    }

    protected void onStart() {
    }

    protected void onRestart() {
    }

    protected void onResume() {
    }

    protected void onPause() {
    }

    protected void onStop() {
    }

    protected void onDestroy() {
    }

    public boolean isFinishing() {
        return cfporacle.Rt.extBool();
    }

    public void setContentView(int layout) {
    }

    public void finish() {
    }
}
