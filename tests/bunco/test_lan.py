"""The join link uses the laptop's Wi-Fi address, read from its interfaces."""

from bunco.lan import parse_ip_addr

SAMPLE = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
3: wlp2s0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlp2s0\\  valid_lft 1
4: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\  valid_lft forever
5: tun0    inet 169.254.3.4/16 scope link tun0
6: wan0    inet 8.8.4.4/24 scope global wan0
"""


def test_private_interface_addresses_are_found_in_order():
    assert parse_ip_addr(SAMPLE) == ["192.168.1.23", "172.17.0.1"]


def test_no_addresses_means_an_empty_list():
    assert parse_ip_addr("") == []
