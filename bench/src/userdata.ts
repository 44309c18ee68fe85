/**
 * A realistic cloud-config pair: an image's vendor data and a user's user-data for the same machine, as cloud-init
 * merges them (keys as documented by cloud-init: users, packages, write_files, runcmd, apt, ...).
 */
export function userDataPair(): [Record<string, unknown>, Record<string, unknown>] {
  const vendor = {
    hostname: "base-image",
    manage_etc_hosts: true,
    timezone: "UTC",
    locale: "en_US.UTF-8",
    package_update: true,
    package_upgrade: false,
    packages: ["curl", "ca-certificates", "gnupg", "unattended-upgrades", ["htop", "3.2.2-2"]],
    users: [
      "default",
      {
        name: "ops",
        gecos: "Operations",
        groups: ["adm", "sudo"],
        shell: "/bin/bash",
        sudo: "ALL=(ALL) NOPASSWD:ALL",
        ssh_authorized_keys: ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBase ops@vendor"],
      },
    ],
    apt: {
      preserve_sources_list: false,
      primary: [{ arches: ["default"], uri: "http://deb.debian.org/debian" }],
      sources: {
        vendor_tools: { source: "deb https://packages.vendor.example/apt stable main", keyid: "0xA1B2C3D4" },
      },
    },
    write_files: [
      { path: "/etc/motd", content: "Managed by the vendor image\n", permissions: "0644" },
      { path: "/etc/sysctl.d/90-net.conf", content: "net.core.somaxconn = 1024\n" },
    ],
    bootcmd: ["echo vendor-boot > /run/vendor"],
    runcmd: [["systemctl", "enable", "--now", "unattended-upgrades"], "echo vendor done"],
    ntp: { enabled: true, ntp_client: "chrony", servers: ["0.pool.ntp.org", "1.pool.ntp.org"] },
    growpart: { mode: "auto", devices: ["/"], ignore_growroot_disabled: false },
    final_message: "vendor image up after $UPTIME seconds",
  };
  const user = {
    hostname: "web-07",
    fqdn: "web-07.prod.example.org",
    packages: ["nginx", "certbot", "python3-certbot-nginx"],
    users: [
      {
        name: "deploy",
        groups: ["www-data"],
        shell: "/bin/bash",
        lock_passwd: true,
        ssh_authorized_keys: ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDeploy deploy@ci"],
      },
    ],
    apt: {
      sources: {
        nginx: { source: "deb https://nginx.org/packages/debian bookworm nginx", keyid: "0x573BFD6B" },
      },
    },
    write_files: [
      {
        path: "/etc/nginx/conf.d/site.conf",
        content: "server {\n  listen 80;\n  server_name web-07.prod.example.org;\n  root /srv/www;\n}\n",
        owner: "root:root",
        permissions: "0644",
      },
      { path: "/etc/motd", content: "web-07: production\n", append: true },
    ],
    runcmd: [["systemctl", "reload", "nginx"], "certbot --nginx -n -d web-07.prod.example.org"],
    ntp: { servers: ["ntp1.example.org"] },
    final_message: "web-07 ready",
    phone_home: { url: "https://deploy.example.org/phone-home/$INSTANCE_ID", post: "all", tries: 5 },
  };
  return [vendor, user];
}
