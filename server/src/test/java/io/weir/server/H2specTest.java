package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * h2spec (every case, no exclusions) against the example server's h2c port and its TLS port (ALPN h2): each h2spec
 * case becomes a JUnit test named after it, failing with h2spec's expected/actual text.
 * h2spec runs with its default options.
 */
class H2specTest {
    static final String INSTALL = "go install github.com/summerwind/h2spec/cmd/h2spec@latest";

    @TempDir
    Path dir;

    @TestFactory
    List<DynamicTest> h2c() throws Exception {
        return h2spec(false);
    }

    /** The same cases over TLS with ALPN h2 ({@code h2spec -t -k}: the certificate is self-signed). */
    @TestFactory
    List<DynamicTest> overTls() throws Exception {
        return h2spec(true);
    }

    private List<DynamicTest> h2spec(boolean tls) throws Exception {
        Path h2spec = ExternalTool.find("h2spec", INSTALL);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Path report = dir.resolve(tls ? "report-tls.xml" : "report.xml");
        ExternalTool.Result result;
        try (HttpServer server = new HttpServer(group)) {
            Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            if (tls) {
                channel = server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
            int port = ((InetSocketAddress) channel.localAddress()).getPort();
            List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p",
                    Integer.toString(port), "-o", "5", "-j", report.toString()));
            if (tls) {
                command.addAll(List.of("-t", "-k"));
            }
            result = ExternalTool.run(600, command);
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
        assertThat(report).as("h2spec wrote no report; its output:\n%s", result.output()).exists();
        List<DynamicTest> tests = cases(report);
        assertThat(tests).as("h2spec reported no case; its output:\n%s", result.output()).hasSizeGreaterThan(100);
        return tests;
    }

    private static List<DynamicTest> cases(Path report) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(report));
        NodeList cases = doc.getElementsByTagName("testcase");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            String name = c.getAttribute("package") + " " + c.getAttribute("classname");
            String problem = text(c, "failure") + text(c, "error") + text(c, "skipped");
            tests.add(DynamicTest.dynamicTest(name, () -> assertThat(problem).as(name).isEmpty()));
        }
        return tests;
    }

    private static String text(Element c, String tag) {
        NodeList nodes = c.getElementsByTagName(tag);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < nodes.getLength(); i++) {
            sb.append(tag).append(": ").append(nodes.item(i).getTextContent()).append('\n');
        }
        return sb.toString();
    }
}
