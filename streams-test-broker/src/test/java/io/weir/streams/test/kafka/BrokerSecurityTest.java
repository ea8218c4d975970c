package io.weir.streams.test.kafka;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrokerSecurityTest {

    @Test
    void eachWithReturnsANewSettingAndKeepsTheRest() {
        BrokerSecurity plain = BrokerSecurity.scram();
        BrokerSecurity full = plain.withTls().withAcls().withUser("app", "secret-1");
        assertFalse(plain.tls() || plain.acls());
        assertTrue(plain.users().isEmpty());
        assertTrue(full.tls() && full.acls());
        assertEquals(Map.of("app", "secret-1"), full.users());
        assertEquals(plain.superUserPassword(), full.superUserPassword());
    }

    @Test
    void everyBrokerGetsItsOwnSuperUserPassword() {
        assertNotEquals(
                BrokerSecurity.scram().superUserPassword(),
                BrokerSecurity.scram().superUserPassword());
    }

    @Test
    void theSuperUserNameIsReserved() {
        assertThrows(
                IllegalArgumentException.class, () -> BrokerSecurity.scram().withUser("admin", "x"));
    }

    @Test
    void itsTextNamesNoPassword() {
        BrokerSecurity security = BrokerSecurity.scram().withUser("app", "secret-2");
        assertFalse(security.toString().contains("secret-2"), security.toString());
        assertFalse(security.toString().contains(security.superUserPassword()), security.toString());
    }
}
