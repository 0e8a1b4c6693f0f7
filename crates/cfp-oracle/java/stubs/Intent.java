/** `android.content.Intent`: extras have arbitrary values. */
class Intent {
    public long getLongExtra(String name, long defaultValue) {
        return cfporacle.Rt.extInt();
    }

    public int getIntExtra(String name, int defaultValue) {
        return cfporacle.Rt.extInt();
    }

    public boolean getBooleanExtra(String name, boolean defaultValue) {
        return cfporacle.Rt.extBool();
    }

    public String getStringExtra(String name) {
        return cfporacle.Rt.extRef() ? "extra" : null;
    }

    public String getAction() {
        return "action";
    }
}
