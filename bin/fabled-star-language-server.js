#!/usr/bin/env node
require('../dist/server.js');
