import com.netflix.hystrix.HystrixCommandKey;
import com.netflix.hystrix.HystrixThreadPoolKey;
import com.netflix.hystrix.metric.sample.HystrixCommandUtilization;
import com.netflix.hystrix.metric.sample.HystrixThreadPoolUtilization;
import com.netflix.hystrix.metric.sample.HystrixUtilization;
import com.netflix.hystrix.serial.SerialHystrixUtilization;
import java.util.HashMap;
import java.util.Map;

/** Serialise a utilization sample of two maps (collections are over-approximated). */
public class JsonHarness2 {
    public static void main(String[] args) {
        Map<HystrixCommandKey, HystrixCommandUtilization> commands = new HashMap<>();
        Map<HystrixThreadPoolKey, HystrixThreadPoolUtilization> pools = new HashMap<>();
        HystrixUtilization utilization = new HystrixUtilization(commands, pools);
        SerialHystrixUtilization.toJsonString(utilization);
    }
}
