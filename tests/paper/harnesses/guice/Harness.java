import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.internal.SingletonScope;
import com.google.inject.util.Providers;

/** A singleton-scoped provider asked any number of times. */
public class Harness {
    public static void main(String[] args) {
        Harness instance = new Harness();
        SingletonScope scope = new SingletonScope();
        Key<Harness> key = Key.get(Harness.class);
        Provider<Harness> provider = Providers.of(instance);
        Provider<Harness> scoped = scope.scope(key, provider);
        int n = Input.readInt();
        if (n <= 0) {
            return;
        }
        for (int i = 0; i < n; ++i) {
            scoped.get();
        }
    }
}
