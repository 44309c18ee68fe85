// Builds test/fixtures/jinja-oracle.json: random user-data holding `## template: jinja` parts (alone, or in MIME
// messages among cloud-config parts, with Merge-Type headers), rendered with random instance data by the real
// cloud-init's jinja handler and merged by its cloud-config handler (jinja_oracle.py).
//   apt-get install -y python3-yaml python3-jinja2 python3-jsonpatch
//   apt-get download cloud-init && dpkg -x cloud-init_*.deb /tmp/ci && \
//   PYTHON=/usr/bin/python3 PYTHONPATH=/tmp/ci/usr/lib/python3/dist-packages node test/oracle/jinja-generate.mjs
// The tests only read the fixture file.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

let seed = 20270415;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const chance = (p) => rnd() < p;
const PYTHON = process.env.PYTHON ?? "python3";

// Instance data in the shape cloud-init writes (v1 with the standard keys, ds with the datasource's data), with keys
// that need aliases (`-`, `.`, `/`), a v2 copy, and now and then the hyphenated base64-encoded-keys list.
function instanceData() {
  const region = pick(["us-east-1", "eu-west-2", "local"]);
  const v1 = {
    cloud_name: pick(["aws", "gce", "nocloud", "openstack"]),
    "availability-zone": `${region}a`,
    instance_id: pick(["i-0abc", "iid-local01", "42"]),
    local_hostname: pick(["web-1", "db.example.com", "host"]),
    region,
    platform: "ec2",
    distro_release: pick(["bookworm", "jammy"]),
    public_ssh_keys: chance(0.5) ? ["ssh-rsa AAAA one", "ssh-ed25519 BBBB two"] : [],
    cpu_count: pick([1, 2, 16]),
    load: pick([0.5, 1.25, 3.75]),
    spot: pick([true, false, null]),
  };
  if (chance(0.3)) v1["user.data"] = "dotted";
  const data = {
    _beta_keys: ["subplatform"],
    ds: {
      "meta-data": {
        "instance-id": v1.instance_id,
        "local-hostname": v1.local_hostname,
        tags: { role: "web" },
      },
      "user.network-config": "net",
      _doc: "EXPERIMENTAL",
    },
    merged_cfg: { _doc: "Merged cloud-init system config", datasource_list: ["NoCloud", "None"] },
    sys_info: { dist: ["debian", "12", "bookworm"], python: "3.11.2", variant: "debian" },
    v1,
  };
  if (chance(0.3)) data.v2 = { cloud_name: "v2-cloud", extra: "only-in-v2" };
  if (chance(0.2)) {
    data["base64-encoded-keys"] = ["ds/secret", "ds/meta-data/blob"];
    data.ds.secret = Buffer.from("decoded: yes").toString("base64");
    data.ds["meta-data"].blob = Buffer.from("not decoded").toString("base64");
  }
  return JSON.stringify(data);
}

const BODIES = [
  "#cloud-config\nhostname: {{ v1.local_hostname }}\nregion: {{ v1.region }}\n",
  "#cloud-config\nruncmd:\n  - echo {{ cloud_name }} {{ v1.cloud_name }} {{ instance_id }}\n",
  "#cloud-config\nzone: {{ v1.availability_zone }}\nzone2: {{ v1['availability-zone'] }}\n",
  "#cloud-config\nid: {{ ds.meta_data.instance_id }}\nhost: {{ ds.meta_data['local-hostname'] }}\nrole: {{ ds.meta_data.tags.role }}\n",
  "#cloud-config\n{% if v1.cloud_name == 'aws' %}\npackages: [awscli]\n{% else %}\npackages: [{{ v1.cloud_name }}-tools]\n{% endif %}\n",
  "#cloud-config\nssh_authorized_keys:\n{% for key in v1.public_ssh_keys %}\n  - {{ key }}\n{% endfor %}\n",
  "#cloud-config\ncpus: {{ v1.cpu_count }}\nload: {{ v1.load }}\nspot: {{ v1.spot }}\nbig: {{ v1.cpu_count * 2 }}\n",
  "#cloud-config\nmissing: {{ v1.nope }}\nalso: {{ nope }}\n",
  "#cloud-config\nname: {{ v1.local_hostname | upper }}\nshort: {{ v1.local_hostname.split('.')[0] }}\nd: {{ v1.nope | default('fallback') }}\n",
  "#cloud-config\nbad: {{ nope.deeper }}\n",
  "#cloud-config\nbad: {{ v1.region - 1 }}\n",
  "#cloud-config\nbad: {{ nope - 1 }}\n",
  "#cloud-config\nbad: {% if %}\n",
  "#cloud-config\n{% include 'other' %}\n",
  "#!/bin/sh\necho {{ v1.local_hostname }}\n",
  "{% if false %}\n#cloud-config\na: 1\n{% endif %}\n",
  '#cloud-config-jsonp\n[{"op": "add", "path": "/x", "value": "{{ v1.region }}"}]\n',
  "plain: text without a header {{ v1.region }}\n",
  "#cloud-config\n{% set name = v1.local_hostname ~ '-' ~ v1.region %}\nfqdn: {{ name }}\n{# a comment #}\nmerge_how: 'dict(recurse_array)+list(append)'\nruncmd: [{{ name }}]\n",
  "#cloud-config\nv2: {{ extra }} {{ v2.cloud_name }}\ndotted: {{ v1.user_data }}\nnet: {{ ds.user_network_config }}\n",
  "#cloud-config\nsecret: {{ ds.secret }}\nblob: {{ ds.meta_data.blob }}\n",
  "#cloud-config\ndist: {{ sys_info.dist | join('/') }}\nds_list: {{ merged_cfg.datasource_list }}\n",
  "#cloud-config\n{% set l = [] %}{% do l.append(v1.region) %}\nregions: {{ l }}\n",
  "#cloud-config\nkeys: {{ v1 | list | length }}\nsorted: {{ ds.meta_data | list | sort | join(',') }}\n",
  "#cloud-config\nruncmd:\n{% for i in range(3) %}\n  - step {{ i }} of {{ loop.length }}\n{% endfor %}\n",
];
const CLOUD_CONFIGS = [
  "#cloud-config\nruncmd: [first]\npackages: [git]\n",
  "#cloud-config\nregion: static\nhostname: static-host\n",
  "#cloud-config\nmerge_how: 'dict(recurse_array,no_replace)+list(append)'\nruncmd: [appended]\n",
  "#cloud-config\nmissing: replaced\n",
];

const template = () => `## template: jinja\n${pick(BODIES)}`;

function mime(parts) {
  const boundary = "===============1234567890==";
  const lines = ['Content-Type: multipart/mixed; boundary="' + boundary + '"', "MIME-Version: 1.0", ""];
  parts.forEach((p, i) => {
    lines.push(`--${boundary}`);
    lines.push(`Content-Type: ${p.type}; charset="us-ascii"`);
    lines.push("MIME-Version: 1.0");
    lines.push("Content-Transfer-Encoding: 7bit");
    if (p.mergeType !== undefined) lines.push(`Merge-Type: ${p.mergeType}`);
    if (p.named) lines.push(`Content-Disposition: attachment; filename="part${i + 1}.yml"`);
    lines.push("");
    lines.push(p.text);
  });
  lines.push(`--${boundary}--`, "");
  return lines.join("\n");
}

const cases = [];
for (let i = 0; i < 500; i++) {
  const data = chance(0.93) ? instanceData() : null;
  if (chance(0.4)) {
    cases.push({ raw: template(), instanceData: data });
    continue;
  }
  const n = 2 + Math.floor(rnd() * 3);
  const parts = [];
  for (let j = 0; j < n; j++) {
    const jinja = chance(0.55);
    parts.push({
      type: jinja ? pick(["text/jinja2", "text/jinja2", "text/plain"]) : "text/cloud-config",
      text: jinja ? template() : pick(CLOUD_CONFIGS),
      mergeType: chance(0.2)
        ? pick(["list(append)+dict(no_replace,recurse_list)+str()", "dict(replace)+list()"])
        : undefined,
      named: chance(0.5),
    });
  }
  cases.push({ raw: mime(parts), instanceData: data });
}
// A declared text/jinja2 part whose first line is not a jinja type line: cloud-init's handler fails on it.
cases.push({
  raw: mime([{ type: "text/jinja2", text: "#cloud-config\na: 1\n", named: true }]),
  instanceData: instanceData(),
});
cases.push({
  raw: mime([{ type: "text/jinja2", text: "## template: jinjax\n#cloud-config\na: 1\n", named: true }]),
  instanceData: instanceData(),
});

const results = JSON.parse(
  execFileSync(PYTHON, [new URL("./jinja_oracle.py", import.meta.url).pathname], {
    input: JSON.stringify(cases),
    maxBuffer: 1 << 28,
    env: process.env,
  }).toString(),
);
const version = execFileSync(
  PYTHON,
  ["-c", "from cloudinit import version; print(version.version_string())"],
  {
    env: process.env,
  },
)
  .toString()
  .trim();
writeFileSync(
  new URL("../fixtures/jinja-oracle.json", import.meta.url),
  `${JSON.stringify({ cloudInit: version, cases: cases.map((c, i) => ({ ...c, expected: results[i] })) })}\n`,
);
const crashes = results.filter((r) => r.crash !== undefined).length;
console.log(`${cases.length} cases (${crashes} crashed), cloud-init ${version}`);
