import com.netflix.hystrix.metric.HystrixRequestEvents;
import com.netflix.hystrix.serial.SerialHystrixRequestEvents;
import java.util.Collections;

/** Serialise the request events of an empty request (collections are over-approximated). */
public class JsonHarness1 {
    public static void main(String[] args) {
        HystrixRequestEvents requestEvents = new HystrixRequestEvents(Collections.emptySet());
        SerialHystrixRequestEvents.toJsonString(requestEvents);
    }
}
