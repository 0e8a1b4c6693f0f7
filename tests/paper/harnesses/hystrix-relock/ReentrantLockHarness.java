import com.netflix.hystrix.util.HystrixRollingPercentile;
import com.netflix.hystrix.strategy.properties.HystrixProperty;

public class ReentrantLockHarness {
    public static void main(String[] args) {
        HystrixProperty<Boolean> property = HystrixProperty.Factory.asProperty(Input.readBoolean());
        int timeInMilliseconds = Input.readInt();
        int numberOfBuckets = Input.readInt();
        int bucketDataLength = Input.readInt();
        if (timeInMilliseconds <= 0 || numberOfBuckets <= 0 || bucketDataLength <= 0) {
            return;
        }
        HystrixRollingPercentile rollingPercentile =
            new HystrixRollingPercentile(timeInMilliseconds, numberOfBuckets, bucketDataLength, property);
        rollingPercentile.getMean();
    }
}
