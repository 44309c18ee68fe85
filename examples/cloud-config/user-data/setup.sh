#!/bin/sh
echo "not cloud-config: cloud-init runs it as a script"
