package io.statecast.examples.ttcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HostCpuTest {

    @Test
    void shouldTakeTheFirstProcessorsModelName() {
        String cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\n"
                + "model name\t: AMD EPYC 7B13\nflags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: Other\n";
        assertEquals("AMD EPYC 7B13", HostCpu.parseModel(cpuinfo), "not the 'model' line, nor the second CPU's");
    }

    @Test
    void shouldSayUnknownWithoutAModelName() {
        assertEquals(HostCpu.UNKNOWN, HostCpu.parseModel(""));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parseModel("processor\t: 0\nmodel\t\t: 1\n"));
        assertEquals(HostCpu.UNKNOWN, HostCpu.parseModel("model name\t:   \n"));
    }

    @Test
    void theLiveReadingShouldNameAModelWhereTheMachineHasOne() throws Exception {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        String model = HostCpu.model();
        if (Files.isReadable(cpuinfo) && Files.readString(cpuinfo).contains("model name")) {
            assertNotEquals(HostCpu.UNKNOWN, model);
            assertFalse(model.isBlank());
        } else {
            assertEquals(HostCpu.UNKNOWN, model);
        }
    }
}
